#include "program_code.h"

#include <link.h>

namespace trestle::mpi {

ProgramCode ProgramCode::Load() {
  ProgramCode code;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* self = static_cast<ProgramCode*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          if (p.p_type != PT_LOAD || (p.p_flags & PF_X) == 0) continue;
          const std::uintptr_t begin = info->dlpi_addr + p.p_vaddr;
          self->ranges_.emplace_back(begin, begin + p.p_memsz);
        }
        return 1;  // the first object is the main executable: stop there
      },
      &code);
  return code;
}

bool ProgramCode::Contains(const void* address) const {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  for (const auto& [begin, end] : ranges_) {
    if (a >= begin && a < end) return true;
  }
  return false;
}

}  // namespace trestle::mpi
