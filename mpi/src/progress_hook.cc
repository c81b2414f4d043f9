#include "progress_hook.h"

#include <dlfcn.h>

namespace trestle::mpi {
namespace {

using RegisterFn = int (*)(ProgressHook::Callback);

RegisterFn Find(const char* name) {
  return reinterpret_cast<RegisterFn>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

bool ProgressHook::Register(Callback callback) {
  const RegisterFn fn = Find("opal_progress_register");
  return fn != nullptr && fn(callback) == 0;  // OPAL_SUCCESS
}

void ProgressHook::Unregister(Callback callback) {
  if (const RegisterFn fn = Find("opal_progress_unregister")) fn(callback);
}

}  // namespace trestle::mpi
