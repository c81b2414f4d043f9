// gettimeofday, as the program sees it: called from the program's own
// executable code (ProgramCode) on the thread that called MPI_Init, it
// returns the rank's virtual time since the run began (seconds since the
// epoch, so dates read as early 1970), the compute since the last MPI call
// charged first; so benchmarks that time themselves with gettimeofday
// (NetPIPE) print modelled times. Every other caller (Open MPI, the SDK,
// other threads), and every call when TRESTLE_MPI_GETTIMEOFDAY=real or
// outside MPI_Init..MPI_Finalize, gets the real time.
#include <dlfcn.h>
#include <sys/time.h>

#include "mpi_layer.h"

using trestle::mpi::MpiLayer;

namespace {

using GettimeofdayFn = int (*)(struct timeval*, void*);

GettimeofdayFn RealGettimeofday() {
  static const auto real = reinterpret_cast<GettimeofdayFn>(dlsym(RTLD_NEXT, "gettimeofday"));
  return real;
}

}  // namespace

extern "C" int gettimeofday(struct timeval* __restrict tv, void* __restrict tz) noexcept {
  MpiLayer* layer = MpiLayer::Get();
  if (layer == nullptr ||
      !layer->ProgramAsksTime(__builtin_return_address(0))) {
    return RealGettimeofday()(tv, tz);
  }
  const std::uint64_t ns = layer->ClockForProgram();
  tv->tv_sec = static_cast<time_t>(ns / 1'000'000'000ull);
  tv->tv_usec = static_cast<suseconds_t>(ns % 1'000'000'000ull / 1000);
  return 0;
}
