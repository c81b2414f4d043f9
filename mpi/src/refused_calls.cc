#include "refused_calls.h"

#include "absl/strings/str_cat.h"
#include "mpi_layer.h"

namespace trestle::mpi {

void RefuseCall(const char* call, const char* what) {
  Fatal(absl::StrCat(call, " is not modelled by libtrestle-mpi (", what,
                     "): docs/mpi.md, \"What is modelled\", lists what is"));
}

}  // namespace trestle::mpi
