// ProgramCode: the address ranges of the program's own executable code (the
// main executable's loadable, executable segments), so that a libc call
// can tell whether the program itself made it or a library did (Open MPI,
// libuv, the SDK). Read once, at MPI_Init. Thread-safe after Load.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace trestle::mpi {

class ProgramCode {
 public:
  // The main executable's executable segments (dl_iterate_phdr).
  static ProgramCode Load();
  bool Contains(const void* address) const;

 private:
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_;  // [begin, end)
};

}  // namespace trestle::mpi
