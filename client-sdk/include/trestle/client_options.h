// trestle::ClientOptions: how a client reaches and identifies itself to the
// daemon. Plain value type; copied into each client at construction.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "trestle/wire/frame_format.h"

namespace trestle {

// How the daemon hands work to a client on its recv channel.
enum class DeliveryMode {
  kPush,  // the daemon writes batches as soon as they exist
  kPull,  // the client asks (AppClient: Receive; SimClient: Fetch)
};

// The daemon address used when ClientOptions::daemon is left empty.
inline constexpr char kDefaultDaemonAddress[] = "127.0.0.1:7878";

// The value of the TRESTLE_TOKEN environment variable, or "" if unset.
std::string DefaultAuthToken();

struct ClientOptions {
  // "HOST:PORT" (TCP; HOST is an IPv4 literal, "[IPv6]" literal or a name)
  // or "unix:/path/to/socket".
  std::string daemon = kDefaultDaemonAddress;
  // The app's node name or the simulator's name; unique among live sessions.
  std::string client_id;
  // Shared secret the daemon may require. Defaults to $TRESTLE_TOKEN.
  std::string auth_token = DefaultAuthToken();
  DeliveryMode mode = DeliveryMode::kPush;
  // Bound on the whole handshake: resolve, connects, Hello, Attach.
  std::chrono::milliseconds connect_timeout{5000};
  // Largest frame this client accepts from the daemon. 0 (the default): the
  // limit the daemon announces in Welcome for send and recv, and
  // wire::kDefaultMaxFrameBytes for ctrl. A frame above the limit breaks the
  // connection (kUnavailable).
  std::uint32_t max_frame_bytes = 0;
  // Backpressure: once this many received messages (AppClient inbox) or
  // transits (SimClient, Fetch mode) wait to be taken, or their payloads
  // reach max_buffered_bytes, the SDK stops reading the recv channel and the
  // daemon keeps the rest; reading resumes when half has been taken.
  std::size_t max_buffered_messages = 65536;
  std::size_t max_buffered_bytes = 64u << 20;
  // The session token of a lost session of the same client_id, to resume it
  // (its pending deliveries are kept for the daemon's session_linger_ms).
  std::string resume_token;
  // Noticing a daemon that went silent (hung, or its host or network gone;
  // a daemon that dies closes its sockets and is noticed at once). A ready
  // client pings when it has heard nothing for keepalive_interval, and ends
  // the session (kUnavailable, through OnError and any blocking call) when
  // it has heard nothing for keepalive_timeout. 0 turns it off.
  std::chrono::milliseconds keepalive_interval{5000};
  std::chrono::milliseconds keepalive_timeout{15000};
  // Carry the send and recv channels on the ctrl connection: one socket per
  // client instead of three (for thousands of clients under an open-file
  // limit). APP clients need kPush for this; the daemon refuses kPull.
  bool shared_connection = false;
  // Share one connection to the daemon with every other client of the same
  // EventLoop that multiplexes to the same address: each client is a lane
  // of it (docs/protocol.md, "Lanes"), with its channels shared as above.
  // The frames of all of them leave in one system call per loop pass and
  // come in with one read, so thousands of clients in one process cost
  // little per message and per idle client. Backpressure is the
  // connection's: while one client's reading is paused, all wait. APP
  // clients need kPush.
  bool multiplex = false;
  // Lockstep time (docs/protocol.md, "Lockstep time"); must match the
  // daemon's time_mode, or Connect fails with FailedPrecondition. APP: Send
  // stamps Now(), the clock is reported to the daemon, and receives block
  // in virtual time (AppClient::ReceiveUntil). SIM: the client follows
  // grants (SimClient::OnGrant, ReportReached); needs kPush.
  bool lockstep = false;
  // SIM, lockstep: the smallest t_deliver - t_send it will ever post for a
  // message between two distinct apps, ns.
  std::uint64_t lookahead_ns = 0;
  // SIM, lockstep: the same for a message an app sends to itself (which must
  // change nothing else the simulator models); unset: lookahead_ns.
  std::optional<std::uint64_t> self_lookahead_ns;
  // SIM: it replays collectives that apps send whole (SendOptions::
  // collectives) in its model, under the grants; declared in Hello
  // (capabilities), passed on to apps in Welcome (Client::simulators()).
  bool replays_collectives = false;
  // APP, payloads by key (docs/protocol.md, "Payloads by key"): when the
  // daemon's Welcome offers its Redis store, Send writes a payload of at
  // least the daemon's threshold to Redis itself (one SET, blocking the
  // calling thread) and sends only its key, and a delivery by key is taken
  // from Redis (GETDEL) before the app sees it. false: every payload goes
  // inline, as with an SDK that does not know payloads by key.
  bool payload_by_key = true;
  // The store's connect and reply timeout. A send by key that cannot reach
  // Redis fails with kUnavailable naming its URL; for 250 ms after a failed
  // connect, at once.
  std::chrono::milliseconds payload_store_timeout{1000};
  // How long a payload written by key lives in Redis if nobody takes it
  // (PX). Welcome does not carry the daemon's store_key_ttl_ms; this
  // default is that setting's default (1 h). Keep it above the daemon's
  // delivery_ttl_ms.
  std::chrono::milliseconds payload_key_ttl{3'600'000};
  // APP: deliveries remembered by message id (the last N), so that one
  // delivered again to a new session (a federated daemon restarted and
  // replaying its journal) is dropped, and acknowledged, instead of handed
  // over twice. Only with a daemon that says it may do that
  // (Welcome.redelivers_across_sessions: a federated one); with any other
  // nothing is remembered and nothing allocated. 8 bytes per id, grown as
  // deliveries come, and about 18 more per id once a session under a new
  // numbering has begun (the ids are then looked up). 0: off.
  std::size_t duplicate_window = 65536;
};

}  // namespace trestle
