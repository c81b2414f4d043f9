// The admin subcommands of `trestle`: status, clients, stats, top, drain,
// shutdown. Each talks to trestled's gRPC admin service.
#pragma once

namespace CLI {
class App;
}

namespace trestle {

void RegisterAdminCommands(CLI::App& app);

}  // namespace trestle
