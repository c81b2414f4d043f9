// `trestle gateway run NODE [--config FILE] -- CMD [ARG...]`: runs CMD inside
// NODE's network namespace, where its packets go through NODE's gateway
// (docs/gateway.md). Linked into the `trestle` tool.
#pragma once

namespace CLI {
class App;
}

namespace trestle::gateway {

void RegisterGatewayCommands(CLI::App& app);

}  // namespace trestle::gateway
