// Fuzz target: fabric::TopologySpec, from a spec string (TopologySpec::Parse)
// or from a YAML file (TopologySpec::FromYamlFile; the input is written to a
// temporary file first), then TopologyBuilder::Build on what it accepted.
//
// Input: byte 0 even = a spec string, odd = a YAML file; the rest is the text.
// Spec strings ending in .yaml/.yml name files and are skipped.
//
// Checked: any text gives a Status, never an exception, a crash or undefined
// behaviour; errors are not empty; an accepted spec builds, and its node
// and link ids fit in 32 bits (what Parse promises), counted here in 128-bit
// arithmetic so that no overflow can hide a shape that is too large.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "trestle/fabric/topology_builder.h"
#include "trestle/fabric/topology_spec.h"

namespace {

using trestle::fabric::TopologyKind;
using trestle::fabric::TopologySpec;
using u128 = unsigned __int128;

void Check(bool ok, const char* what, std::string_view detail = {}) {
  if (ok) return;
  std::fprintf(stderr, "topology_spec_fuzzer: %s %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

// Nodes (endpoints and switches) of an accepted spec, as docs/fabric.md
// defines the shapes; 128 bits cannot overflow for 32-bit parameters
// (dimensions are multiplied only while the product is below 2^64).
u128 Nodes(const TopologySpec& s) {
  switch (s.kind) {
    case TopologyKind::kSwitch: return u128{s.endpoints} + 1;  // and the switch
    case TopologyKind::kRing:
    case TopologyKind::kFullMesh: return s.endpoints;  // direct: endpoints only
    case TopologyKind::kTorus:
    case TopologyKind::kMesh: {
      u128 n = 1;
      for (std::uint32_t d : s.dims) n = n > (u128{1} << 64) ? n : n * d;
      return n;
    }
    case TopologyKind::kFatTree: {
      const u128 k = s.k;
      return u128{s.oversubscription} * k * k * k / 4 + 5 * k * k / 4;
    }
    case TopologyKind::kDragonfly: {
      const u128 p = s.dragonfly.p, a = s.dragonfly.a, g = s.dragonfly.g;
      return p * a * g + a * g;
    }
  }
  return 0;
}

std::string WriteTemp(const std::string& text) {
  char path[] = "/tmp/topology_spec_fuzzer_XXXXXX.yaml";
  const int fd = mkstemps(path, 5);
  Check(fd >= 0, "cannot create a temporary file");
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  Check(written, "cannot write a temporary file");
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool yaml = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<TopologySpec> spec;
  if (yaml) {
    const std::string path = WriteTemp(text);
    spec = TopologySpec::FromYamlFile(path);
    unlink(path.c_str());
  } else {
    if (text.ends_with(".yaml") || text.ends_with(".yml")) return 0;
    spec = TopologySpec::Parse(text);
  }
  if (!spec.ok()) {
    Check(!spec.status().message().empty(), "error without text");
    return 0;
  }
  Check(Nodes(*spec) <= 0xfffffff0u, "accepted a shape whose node ids overflow 32 bits",
        spec->text);
  trestle::fabric::TopologyPtr topology = trestle::fabric::TopologyBuilder::Build(*spec);
  Check(topology != nullptr, "an accepted spec did not build", spec->text);
  Check(u128{topology->EndpointCount()} + topology->SwitchCount() == Nodes(*spec),
        "the built topology has another node count than its spec", spec->text);
  return 0;
}
