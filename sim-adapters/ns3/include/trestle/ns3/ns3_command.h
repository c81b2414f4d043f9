// The ns-3 adapter's trestle-sim subcommand (trestle_ns3_cli).
//
// RegisterNs3Commands adds to `app`:
//   ns3 --daemon ADDR (--topology SPEC | --scenario wifi-adhoc:N) [flags]
//       runs the live adapter (Ns3TransitHandler on SimAdapter) until SIGINT
//       or SIGTERM, then prints a summary and exits 0; exit 1 on a bad flag,
//       when it cannot connect, when --time-mode is not the daemon's mode, or
//       when the daemon goes away. `ns3 --help` lists the flags.
// the ns3 backend of `sweep` (`sweep --backend ns3`, with its flags
// --transport --queue --queue-size --mtu --ip-routing), registered with the
// fabric CLI's sweep command, and
//   validate --topology SPEC --workload W [...]
//       the same workloads through the fabric models and ns-3, compared.
// Call after trestle::fabric::RegisterFabricCommands.
//
// Failures print "error: MESSAGE" to stderr and throw CLI::RuntimeError
// (exit code 1), as the fabric commands do.
#ifndef TRESTLE_NS3_NS3_COMMAND_H_
#define TRESTLE_NS3_NS3_COMMAND_H_

#include <CLI/CLI.hpp>

namespace trestle::ns3_adapter {

void RegisterNs3Commands(CLI::App& app);

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_COMMAND_H_
