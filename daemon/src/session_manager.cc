#include "session_manager.h"

#include <spdlog/spdlog.h>

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "dataplane/data_plane.h"
#include "federation/bridge_directory.h"
#include "net/client_connection.h"
#include "session/hello_screen.h"
#include "session/session.h"
#include "session/token_equal.h"
#include "store/redis_payload_store.h"
#include "trestle/platform/check.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {
namespace {
constexpr std::uint32_t kSessionNumberMask = (1u << kSessionBits) - 1;
constexpr std::size_t kSessionTokenBytes = 16;

const char* RoleName(wire::Role role) { return role == wire::ROLE_APP ? "APP" : "SIM"; }
// A simulator that declares no self lookahead gives its lookahead for every message.
std::uint64_t SelfLookahead(const wire::Hello& hello) {
  return hello.has_self_lookahead_ns() ? hello.self_lookahead_ns() : hello.lookahead_ns();
}
}  // namespace

SessionManager::SessionManager(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                               ClientRegistry& sims)
    : loop_(loop),
      config_(config),
      payload_key_prefix_(config.store == StoreKind::kRedis ? PayloadKeyPrefix(config) : ""),
      apps_(apps),
      sims_(sims) {}

void SessionManager::set_data_plane(DataPlane* data) {
  data_ = data;
  data_->SetJoinedCallback([this](Session& s, std::uint64_t start_ns) { Joined(s, start_ns); });
}

std::string SessionManager::NewToken() {
  // A session token lets whoever holds it attach to the session's channels,
  // so it is a secret: 128 bits from the kernel's CSPRNG, never derived from
  // an earlier token.
  unsigned char bytes[kSessionTokenBytes];
  std::size_t have = 0;
  while (have < sizeof bytes) {
    const ssize_t n = getrandom(bytes + have, sizeof bytes - have, 0);
    if (n > 0) {
      have += static_cast<std::size_t>(n);
    } else {
      // Impossible on Linux >= 3.17: never hand out a weak token.
      TRESTLE_CHECK(errno == EINTR, absl::StrCat("getrandom failed: ", std::strerror(errno),
                                                 "; cannot make a session token"));
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(2 * sizeof bytes, '0');
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    text[2 * i] = kHex[bytes[i] >> 4];
    text[2 * i + 1] = kHex[bytes[i] & 0xf];
  }
  return text;
}

std::uint64_t SessionManager::NewIdPrefix() {
  // Session numbers wrap after 2^22 sessions; a number still held by a live
  // or lingering session is skipped, so two live sessions never share ids.
  std::uint32_t number = next_session_number_;
  while (live_session_numbers_.contains(number)) number = (number + 1) & kSessionNumberMask;
  next_session_number_ = (number + 1) & kSessionNumberMask;
  if (next_session_number_ == 0) next_session_number_ = 1;
  live_session_numbers_.insert(number);
  return (std::uint64_t{config_.daemon_id} << kSessionBits) | number;
}

bool SessionManager::RefuseHello(ClientConnection& c, const wire::Hello& hello) {
  if (std::optional<HelloRefusal> no = ScreenHello(config_, hello)) {
    c.SendError(no->code, no->text, 0, true);
    return true;
  }
  if (by_token_.size() >= config_.max_clients && hello.resume_token().empty()) {
    c.SendError(wire::RESOURCE_EXHAUSTED,
                absl::StrCat("the daemon holds ", by_token_.size(),
                             " sessions, the most it takes (max_clients); try again later"),
                0, true);
    return true;
  }
  if (data_->draining() && hello.role() == wire::ROLE_APP) {
    // Simulators may still join: what is in flight needs one to finish.
    c.SendError(wire::SHUTTING_DOWN, "the daemon is draining: no new app sessions", 0, true);
    return true;
  }
  return false;
}

void SessionManager::OnHello(ClientConnection& c, const wire::Hello& hello) {
  if (RefuseHello(c, hello)) return;
  if (directory_ == nullptr) return AdmitHello(c, hello);
  if (!claiming_.try_emplace(&c, hello).second) {
    c.SendError(wire::BAD_REQUEST, "a second Hello while the first is being admitted", 0, true);
    return;
  }
  directory_->Claim(hello.role(), hello.client_id(),
                    [this, conn = &c](const absl::StatusOr<BridgeDirectory::Claimed>& holder) {
                      Claimed(conn, holder);
                    });
}

void SessionManager::Claimed(ClientConnection* c,
                             const absl::StatusOr<BridgeDirectory::Claimed>& holder) {
  auto it = claiming_.find(c);
  if (it == claiming_.end()) return;  // the connection closed meanwhile
  const wire::Hello hello = std::move(it->second);
  claiming_.erase(it);
  if (!holder.ok()) {
    c->SendError(wire::UNAVAILABLE,
                 absl::StrCat("cannot check ", RoleName(hello.role()), " client id '",
                              hello.client_id(), "' in the bridge's registry: ",
                              holder.status().message()),
                 0, true);
    return;
  }
  if (holder->holder != config_.daemon_id) {
    c->SendError(wire::ALREADY_EXISTS,
                 absl::StrCat(RoleName(hello.role()), " client id '", hello.client_id(),
                              "' is attached to daemon ", holder->holder, " of this bridge (run '",
                              config_.run, "'); pick another id"),
                 0, true);
    return;
  }
  // The bridge numbers this daemon's sessions (a new session opened below
  // takes this number, or the next free one).
  const std::uint32_t number = static_cast<std::uint32_t>(holder->session_number) & kSessionNumberMask;
  if (number != 0) next_session_number_ = number;
  AdmitHello(*c, hello);
}

void SessionManager::AdmitHello(ClientConnection& c, const wire::Hello& hello) {
  ClientEntry* entry = &RegistryFor(hello.role()).GetOrCreate(hello.client_id());
  Session* s = entry->session;
  const bool resume = s != nullptr && !hello.resume_token().empty() &&
                      TokensEqual(hello.resume_token(), s->token());
  if (s != nullptr && !resume) {
    if (s->state() == Session::State::kOpen) {
      c.SendError(wire::ALREADY_EXISTS,
                  absl::StrCat(RoleName(hello.role()), " client id '", hello.client_id(),
                               "' is already connected; resume it with its session token or "
                               "pick another id"),
                  0, true);
      return;
    }
    End(*s, /*release=*/false);  // a lingering session nobody resumed: a fresh start replaces it
    s = nullptr;
    // Ending it may have freed the entry (nothing else named it): the new
    // session takes the id's entry as it is now, never a freed slot.
    entry = &RegistryFor(hello.role()).GetOrCreate(hello.client_id());
  }
  if (resume) {
    if (s->state() == Session::State::kOpen) Detach(*s, /*linger=*/true);
    s->state_ = Session::State::kOpen;
    s->params_.mode = hello.mode() == wire::PULL ? wire::PULL : wire::PUSH;
    s->params_.delivery_acks = hello.delivery_acks();
    s->params_.payload_by_key = hello.payload_by_key() && hello.delivery_acks();
    s->params_.lookahead_ns = hello.lookahead_ns();
    s->params_.self_lookahead_ns = SelfLookahead(hello);
    s->params_.capabilities = hello.capabilities();
  } else {
    s = OpenSession(hello, *entry);
  }
  s->ctrl_ = &c;
  c.Bind(s, wire::CHANNEL_CTRL, hello.shared_connection());
  c.SetMaxFrameBytes(config_.max_frame_bytes);
  if (hello.shared_connection()) {
    s->send_ = &c;
    s->recv_ = &c;
    c.SetWatermarks(config_.output_high_watermark, config_.output_high_watermark / 4);
  }
  const std::optional<std::uint64_t> start_ns = s->is_app() ? data_->OnAppHello(*s) : 0;
  if (!start_ns) {
    // A peer of a lockstep run: the coordinator says when the app starts.
    joining_[s] = Joining{&c, resume};
    return;
  }
  Welcomed(c, *s, resume, *start_ns);
}

void SessionManager::Joined(Session& s, std::uint64_t start_ns) {
  auto it = joining_.find(&s);
  if (it == joining_.end()) return;
  const Joining joining = it->second;
  joining_.erase(it);
  Welcomed(*joining.ctrl, s, joining.resumed, start_ns);
}

void SessionManager::Welcomed(ClientConnection& c, Session& s, bool resumed,
                              std::uint64_t start_ns) {
  WriteWelcome(c, s, resumed, start_ns);
  spdlog::debug("{} '{}' {} session {:x}", RoleName(s.role()),
                RegistryFor(s.role()).at(s.client()).id, resumed ? "resumed" : "opened",
                s.id_prefix());
  if (s.ready()) data_->OnSessionReady(s);  // after Welcome, in the stream's order
}

Session* SessionManager::OpenSession(const wire::Hello& hello, ClientEntry& entry) {
  Session::Params params;
  params.token = NewToken();
  params.id_prefix = NewIdPrefix();
  params.role = hello.role();
  params.mode = hello.mode() == wire::PULL ? wire::PULL : wire::PUSH;
  params.client = entry.index;
  params.max_frame_bytes = config_.max_frame_bytes;
  params.delivery_acks = hello.delivery_acks();
  // A key must outlive the delivery's write until the app has taken it:
  // only an app that acknowledges deliveries gets them by key.
  params.payload_by_key = hello.payload_by_key() && hello.delivery_acks();
  params.lookahead_ns = hello.lookahead_ns();
  params.self_lookahead_ns = SelfLookahead(hello);
  params.capabilities = hello.capabilities();
  auto* s = new Session(loop_, std::move(params));
  RegistryFor(hello.role()).SetSession(entry, s);
  by_token_.emplace(s->token(), s);
  return s;
}

void SessionManager::WriteWelcome(ClientConnection& c, const Session& s, bool resumed,
                                  std::uint64_t lockstep_start_ns) {
  wire::Frame frame;
  wire::Welcome* w = frame.mutable_welcome();
  w->set_protocol_version(wire::kProtocolVersion);
  w->set_session_token(s.token());
  w->set_id_prefix(s.id_prefix());
  w->set_next_send_seq(s.next_seq());
  w->set_resumed(resumed);
  w->set_daemon_id(config_.daemon_id);
  w->set_lockstep_start_ns(lockstep_start_ns);
  if (s.is_app()) {
    // Only a federated daemon delivers again under another numbering (its
    // journal and stream replayed after a restart, an app that moved);
    // otherwise what comes again keeps its delivery_seq, in this numbering.
    w->set_redelivers_across_sessions(config_.federate);
    w->set_delivery_numbering(apps_.at(s.client()).life);
    for (const ClientEntry& sim : sims_) {
      if (!sim.live || sim.session == nullptr || sim.session->state() != Session::State::kOpen) {
        continue;
      }
      wire::SimulatorInfo* info = w->add_simulators();
      info->set_client_id(sim.id);
      *info->mutable_capabilities() = sim.session->capabilities();
    }
  }
  wire::EffectiveConfig* ec = w->mutable_config();
  ec->set_max_frame_bytes(config_.max_frame_bytes);
  ec->set_max_batch(config_.max_batch);
  ec->set_time_mode(std::string(wire::TimeModeName(config_.time_mode)));
  ec->set_sim_assignment(std::string(SimAssignmentName(config_.sim_assignment)));
  ec->set_delivery_ttl_ms(config_.delivery_ttl_ms);
  ec->set_session_linger_ms(config_.session_linger_ms);
  if (config_.store == StoreKind::kRedis) {
    wire::PayloadStoreInfo* store = w->mutable_payload_store();
    store->set_url(config_.store_client_url.empty() ? config_.store_url
                                                    : config_.store_client_url);
    store->set_key_prefix(payload_key_prefix_);
    store->set_by_key_threshold(config_.payload_by_key_threshold);
    store->set_by_key(config_.payload_by_key);
  }
  c.Write(frame);
}

void SessionManager::OnAttach(ClientConnection& c, const wire::Attach& attach) {
  if (attach.channel() != wire::CHANNEL_SEND && attach.channel() != wire::CHANNEL_RECV) {
    c.SendError(wire::BAD_REQUEST, "Attach.channel must be CHANNEL_SEND or CHANNEL_RECV", 0,
                true);
    return;
  }
  if (!config_.auth_token.empty() && !TokensEqual(attach.auth_token(), config_.auth_token)) {
    c.SendError(wire::UNAUTHENTICATED,
                attach.auth_token().empty()
                    ? "this daemon requires an auth token on Attach as on Hello"
                    : "Attach: wrong auth token",
                0, true);
    return;
  }
  auto it = by_token_.find(attach.session_token());
  if (it == by_token_.end() || it->second->state() != Session::State::kOpen) {
    c.SendError(wire::NOT_FOUND, "Attach: unknown session token (say Hello on ctrl first)", 0,
                true);
    return;
  }
  Session& s = *it->second;
  const char* name = attach.channel() == wire::CHANNEL_SEND ? "send" : "recv";
  Channel*& slot = s.slot(attach.channel());
  if (slot != nullptr) {
    // Someone else holds this session's token: refuse, and make the attempt
    // visible to the session's owner.
    c.SendError(wire::ALREADY_EXISTS,
                absl::StrCat("Attach: the session already has a ", name, " channel"), 0, true);
    if (s.ctrl() != nullptr) {
      s.ctrl()->SendError(wire::ALREADY_EXISTS,
                          absl::StrCat("a second Attach for this session's ", name,
                                       " channel was refused: another connection presented "
                                       "this session's token"));
    }
    spdlog::warn("refused a second Attach for the {} channel of {} '{}'", name,
                 RoleName(s.role()), RegistryFor(s.role()).at(s.client()).id);
    return;
  }
  slot = &c;
  c.Bind(&s, attach.channel(), false);
  c.SetMaxFrameBytes(config_.max_frame_bytes);
  c.SetWatermarks(config_.output_high_watermark, config_.output_high_watermark / 4);
  wire::Frame frame;
  frame.mutable_attached()->set_channel(attach.channel());
  c.Write(frame);
  if (s.ready()) data_->OnSessionReady(s);
}

void SessionManager::OnBye(Session& s) {
  wire::Frame frame;
  frame.mutable_bye();
  if (s.ctrl() != nullptr) s.ctrl()->Write(frame);
  Detach(s, /*linger=*/false);
  End(s);
}

void SessionManager::CloseSession(Session& s, wire::ErrorCode code, std::string_view text) {
  spdlog::warn("closing {} session of '{}': {}", RoleName(s.role()),
               RegistryFor(s.role()).at(s.client()).id, text);
  if (s.ctrl() != nullptr) s.ctrl()->SendError(code, text);
  const bool linger = s.is_app() && config_.session_linger_ms > 0;
  Detach(s, linger);
  if (!linger) End(s);
}

void SessionManager::OnChannelLost(ClientConnection& c) {
  Session* s = c.session();
  if (s == nullptr) {
    c.Close();
    return;
  }
  const bool linger = s->is_app() && config_.session_linger_ms > 0;
  Detach(*s, linger);
  if (!linger) End(*s);
}

void SessionManager::Detach(Session& s, bool linger) {
  data_->OnSessionDetached(s);
  for (Channel** slot : {&s.ctrl_, &s.send_, &s.recv_}) {
    if (*slot == nullptr) continue;
    (*slot)->Unbind();
    (*slot)->Close();  // a shared connection is closed once: Close is idempotent
    *slot = nullptr;
  }
  if (linger) {
    s.state_ = Session::State::kLingering;
    s.linger_deadline_ms_ = uv_now(loop_) + config_.session_linger_ms;
  }
}

void SessionManager::End(Session& s, bool release) {
  ClientRegistry& registry = RegistryFor(s.role());
  ClientEntry& entry = registry.at(s.client());
  if (directory_ != nullptr && release && entry.session == &s) {
    directory_->Release(s.role(), entry.id);
  }
  if (entry.session == &s) registry.SetSession(entry, nullptr);  // may free the entry
  joining_.erase(&s);
  by_token_.erase(s.token());
  live_session_numbers_.erase(static_cast<std::uint32_t>(s.id_prefix()) & kSessionNumberMask);
  s.Destroy();
}

void SessionManager::OnConnectionClosed(ClientConnection& c) {
  claiming_.erase(&c);
  for (auto it = joining_.begin(); it != joining_.end();) {
    if (it->second.ctrl == &c) {
      joining_.erase(it++);
    } else {
      ++it;
    }
  }
  Session* s = c.session();
  if (s == nullptr) return;
  for (Channel** slot : {&s->ctrl_, &s->send_, &s->recv_}) {
    if (*slot == &c) *slot = nullptr;
  }
  c.Unbind();
}

void SessionManager::ExpireLingering(std::uint64_t now_ms) {
  std::vector<Session*> expired;
  for (auto& [token, s] : by_token_) {
    if (s->state() == Session::State::kLingering && s->linger_deadline_ms_ <= now_ms) {
      expired.push_back(s);
    }
  }
  for (Session* s : expired) End(*s);
}

void SessionManager::EndAll() {
  std::vector<Session*> all;
  for (auto& [token, s] : by_token_) all.push_back(s);
  for (Session* s : all) {
    Detach(*s, /*linger=*/false);
    End(*s);
  }
}

}  // namespace trestle::daemon
