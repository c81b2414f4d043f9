#include "frame_router.h"

#include <uv.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "session/role_rules.h"
#include "session/session.h"
#include "trestle/wire/channel_name.h"

namespace trestle::daemon {
namespace {

std::string FrameName(const wire::Frame& frame) {
  const auto* field = wire::Frame::descriptor()->FindFieldByNumber(frame.body_case());
  return field == nullptr ? "an empty frame" : std::string(field->name());
}

}  // namespace

void FrameRouter::Route(ClientConnection& c, wire::Frame& frame) {
  using F = wire::Frame;
  if (c.channel() == wire::CHANNEL_UNSPECIFIED) {
    if (frame.body_case() == F::kHello) {
      sessions_.OnHello(c, frame.hello());
    } else if (frame.body_case() == F::kAttach) {
      sessions_.OnAttach(c, frame.attach());
    } else {
      c.SendError(wire::BAD_REQUEST,
                  "the first frame on a connection must be Hello (ctrl) or Attach (send, "
                  "recv), not " + FrameName(frame),
                  0, true);
    }
    return;
  }
  Session* s = c.session();
  if (s == nullptr) return;  // the session is already ending
  const wire::Channel allowed = RoleRules::For(s->role()).ChannelOf(frame.body_case());
  if (allowed != wire::CHANNEL_UNSPECIFIED && (allowed == c.channel() || c.shared())) {
    Dispatch(c, *s, frame);
  } else {
    Refuse(c, frame);
  }
}

void FrameRouter::Dispatch(ClientConnection& c, Session& s, wire::Frame& frame) {
  using F = wire::Frame;
  wire::Frame reply;
  switch (frame.body_case()) {
    case F::kSend: data_.OnSend(s, *frame.mutable_send()); return;
    case F::kOutcomes: data_.OnOutcomes(s, frame.outcomes()); return;
    case F::kReceive: data_.OnReceive(s, frame.receive()); return;
    case F::kFetch: data_.OnFetch(s, frame.fetch()); return;
    case F::kAck: data_.OnAck(s, frame.ack()); return;
    case F::kClock: data_.OnClock(s, frame.clock()); return;
    case F::kReached: data_.OnReached(s, frame.reached()); return;
    case F::kBye: sessions_.OnBye(s); return;
    case F::kPing:
      reply.mutable_pong()->set_nonce(frame.ping().nonce());
      reply.mutable_pong()->set_daemon_time_ns(uv_hrtime());
      c.Write(reply);
      return;
    case F::kStatsRequest:
      report_.FillStats(frame.stats_request(), s.max_frame_bytes(), reply.mutable_stats_reply());
      c.Write(reply);
      return;
    default:
      Refuse(c, frame);  // a rule without a handler: refuse rather than ignore
  }
}

// An operation this role or channel may not do: say so, and keep serving.
void FrameRouter::Refuse(ClientConnection& c, const wire::Frame& frame) {
  using F = wire::Frame;
  const std::string name = FrameName(frame);
  switch (frame.body_case()) {
    case F::BODY_NOT_SET:
      c.SendError(wire::BAD_REQUEST, "empty frame: no body set");
      return;
    case F::kWelcome: case F::kPong: case F::kStatsReply: case F::kAttached:
    case F::kTransits: case F::kDeliveries: case F::kError:
    case F::kGrant: case F::kWake: case F::kQuiescent:
      c.SendError(wire::BAD_REQUEST, name + " is sent by the daemon, not by clients");
      return;
    case F::kHello: case F::kAttach:
      c.SendError(wire::BAD_REQUEST, name + " is only valid as the first frame of a connection");
      return;
    default:
      break;
  }
  const RoleRules& mine = RoleRules::For(c.session()->role());
  const RoleRules* owner = RoleRules::Owner(frame.body_case());
  if (mine.ChannelOf(frame.body_case()) == wire::CHANNEL_UNSPECIFIED && owner != nullptr) {
    c.SendError(wire::PERMISSION_DENIED,
                absl::StrCat("role ", mine.name(), " may not send ", name, " (",
                             owner == &RoleRules::For(wire::ROLE_APP) ? "an " : "a ", owner->name(),
                             " operation)"));
    return;
  }
  c.SendError(wire::PERMISSION_DENIED, absl::StrCat(name, " is not allowed on the ",
                                                    wire::ChannelName(c.channel()), " channel"));
}

}  // namespace trestle::daemon
