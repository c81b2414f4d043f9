#include "federation/bridge_links.h"

namespace trestle::daemon {

BridgeLinks::BridgeLinks(uv_loop_t* loop, const DaemonConfig& config)
    : redis_(loop, "bridge", config.store_url, RedisConnection::Options()),
      directory_(redis_, BridgeDirectory::Options{.run = config.run,
                                                  .daemon_id = config.daemon_id,
                                                  .key_ttl_ms = config.store_key_ttl_ms}),
      streams_(loop, redis_, config.store_url,
               PeerStreams::Options{.run = config.run, .daemon_id = config.daemon_id}),
      journal_(redis_, config.run, config.daemon_id) {}

absl::Status BridgeLinks::Open() { return redis_.Open(); }

void BridgeLinks::Close() {
  streams_.Close();
  redis_.Close();
}

}  // namespace trestle::daemon
