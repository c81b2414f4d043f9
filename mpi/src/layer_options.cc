#include "layer_options.h"

#include <string_view>

#include "absl/strings/string_view.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace trestle::mpi {
namespace {

absl::Status Bad(absl::string_view variable, absl::string_view value, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(variable, "='", value, "': ", why));
}

}  // namespace

absl::StatusOr<LayerOptions> LayerOptions::FromEnvironment(
    const std::function<const char*(const char*)>& getenv) {
  LayerOptions o;
  const char* daemon = getenv("TRESTLE_MPI_DAEMON");
  if (daemon == nullptr || *daemon == '\0') {
    return absl::InvalidArgumentError(
        "TRESTLE_MPI_DAEMON is not set: run the program through `trestle mpirun` (docs/mpi.md)");
  }
  o.daemon = daemon;
  if (const char* v = getenv("TRESTLE_MPI_ID_PREFIX"); v != nullptr) {
    if (*v == '\0') return Bad("TRESTLE_MPI_ID_PREFIX", v, "empty");
    o.id_prefix = v;
  }
  if (const char* v = getenv("TRESTLE_MPI_COMPUTE"); v != nullptr && *v != '\0') {
    const std::string_view text(v);
    if (text == "none") {
      o.compute = Compute::kNone;
    } else if (text == "measured") {
      o.compute = Compute::kMeasured;
    } else if (text.starts_with("measured:")) {
      o.compute = Compute::kMeasured;
      if (!absl::SimpleAtod(absl::string_view(v + 9), &o.compute_scale) || !(o.compute_scale > 0)) {
        return Bad("TRESTLE_MPI_COMPUTE", v, "SCALE must be a number above 0");
      }
    } else {
      return Bad("TRESTLE_MPI_COMPUTE", v, "expected none, measured or measured:SCALE");
    }
  }
  if (const char* v = getenv("TRESTLE_MPI_COLL"); v != nullptr) {
    absl::StatusOr<AlgorithmChoice> choice = AlgorithmChoice::Parse(v);
    if (!choice.ok()) return Bad("TRESTLE_MPI_COLL", v, choice.status().message());
    o.algorithms = *choice;
  }
  if (const char* v = getenv("TRESTLE_MPI_REDUCE_BW"); v != nullptr && *v != '\0') {
    if (!absl::SimpleAtod(v, &o.reduce_bytes_per_second) || !(o.reduce_bytes_per_second >= 0)) {
      return Bad("TRESTLE_MPI_REDUCE_BW", v, "expected bytes per second, a number >= 0");
    }
  }
  if (const char* v = getenv("TRESTLE_MPI_POLL_NS"); v != nullptr && *v != '\0') {
    if (!absl::SimpleAtoi(v, &o.poll_ns) || o.poll_ns == 0) {
      return Bad("TRESTLE_MPI_POLL_NS", v, "expected a whole number of ns, at least 1");
    }
  }
  if (const char* v = getenv("TRESTLE_MPI_GETTIMEOFDAY"); v != nullptr && *v != '\0') {
    const std::string_view text(v);
    if (text != "virtual" && text != "real") {
      return Bad("TRESTLE_MPI_GETTIMEOFDAY", v, "expected virtual or real");
    }
    o.virtual_gettimeofday = text == "virtual";
  }
  if (const char* v = getenv("TRESTLE_MPI_MIRROR"); v != nullptr && *v != '\0') {
    const std::string_view text(v);
    if (text == "steps") {
      o.mirror = Mirror::kSteps;
    } else if (text == "collectives") {
      o.mirror = Mirror::kCollectives;
    } else if (text == "auto") {
      o.mirror = Mirror::kAuto;
    } else {
      return Bad("TRESTLE_MPI_MIRROR", v, "expected steps, collectives or auto");
    }
  }
  if (const char* v = getenv("TRESTLE_MPI_CONNECT_TIMEOUT_MS"); v != nullptr && *v != '\0') {
    std::int64_t ms = 0;
    if (!absl::SimpleAtoi(v, &ms) || ms <= 0) {
      return Bad("TRESTLE_MPI_CONNECT_TIMEOUT_MS", v, "expected a whole number of ms above 0");
    }
    o.connect_timeout = std::chrono::milliseconds(ms);
  }
  if (const char* v = getenv("TRESTLE_MPI_TIMELINE"); v != nullptr) o.timeline_dir = v;
  return o;
}

}  // namespace trestle::mpi
