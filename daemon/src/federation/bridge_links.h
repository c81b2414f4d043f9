// BridgeLinks: a federated daemon's links to its bridge (docs/federation.md):
// the bridge's own Redis connection ("bridge", to config.store_url) and,
// on it, the BridgeDirectory, the PeerStreams (which read on a connection of
// their own) and the MessageJournal.
//
// Built with the daemon, before its data plane, whose FederationRouter uses
// them; nothing connects before Open(). Close() ends both connections (the
// appends still unanswered are answered Unavailable, inside the call), and
// must come before the data plane is destroyed: after it, nothing here
// calls out again.
//
// Loop thread only. The loop and the config must outlive it.
#pragma once

#include <uv.h>

#include "absl/status/status.h"
#include "federation/bridge_directory.h"
#include "federation/message_journal.h"
#include "federation/peer_streams.h"
#include "store/redis_connection.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class BridgeLinks {
 public:
  BridgeLinks(uv_loop_t* loop, const DaemonConfig& config);

  // Connects to the bridge's Redis; the error names the URL.
  absl::Status Open();
  void Close();

  BridgeDirectory& directory() { return directory_; }
  const BridgeDirectory& directory() const { return directory_; }
  PeerStreams& streams() { return streams_; }
  MessageJournal& journal() { return journal_; }

 private:
  RedisConnection redis_;
  BridgeDirectory directory_;
  PeerStreams streams_;
  MessageJournal journal_;
};

}  // namespace trestle::daemon
