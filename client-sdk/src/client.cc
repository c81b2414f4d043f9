#include "trestle/client.h"

#include <algorithm>
#include <string>
#include <utility>

#include "session.h"
#include "wire_status.h"

namespace trestle {

// Forwards Session events to the Client's hooks; keeps internal::Session out
// of the public header.
class Client::SessionEvents final : public internal::Session::Listener {
 public:
  explicit SessionEvents(Client* client) : client_(client) {}
  void OnSessionReady(const wire::Welcome& welcome) override {
    client_->session_token_ = welcome.session_token();
    client_->HandleReady(welcome);
  }
  void OnRecvFrame(wire::Frame& frame) override { client_->HandleRecvFrame(frame); }
  void OnChannelError(wire::Channel channel, const wire::Error& error) override {
    client_->HandleChannelError(channel, error);
  }
  void OnSessionLost(const absl::Status& status) override {
    client_->HandleLost(status);
    client_->ReportError(status);
  }

 private:
  Client* client_;
};

Client::Client(EventLoop* loop, ClientOptions options, wire::Role role)
    : owned_loop_(loop == nullptr ? std::make_unique<EventLoop>() : nullptr),
      loop_(loop == nullptr ? owned_loop_.get() : loop),
      options_(std::move(options)),
      role_(role),
      events_(std::make_unique<SessionEvents>(this)) {}

Client::~Client() {
  Shutdown();
  retired_session_.reset();
}

void Client::Shutdown() {
  if (session_ == nullptr) return;
  // Best effort and non-blocking: the Bye is handed to the kernel as the
  // connections close, so the daemon ends the session instead of keeping it
  // for resumption.
  session_->SendBye();
  session_.reset();
}

absl::Status Client::Connect() {
  if (absl::Status s = CheckMayBlock("Connect"); !s.ok()) return s;
  absl::Status result;
  bool done = false;
  absl::Status started = ConnectAsync([&](absl::Status status) {
    result = std::move(status);
    done = true;
  });
  if (!started.ok()) return started;
  // The session's own timer fails the handshake at connect_timeout; the
  // extra second only guards against a stuck loop.
  loop_->RunUntil([&] { return done; }, options_.connect_timeout + std::chrono::seconds(1));
  if (!done) {
    session_->Abort(absl::DeadlineExceededError("connect timed out"));
  }
  return result;
}

absl::Status Client::ConnectAsync(std::function<void(absl::Status)> done) {
  if (session_ != nullptr) {
    switch (session_->state()) {
      case internal::Session::State::kConnecting:
        return absl::FailedPreconditionError("already connecting");
      case internal::Session::State::kReady:
      case internal::Session::State::kClosing:
        return absl::FailedPreconditionError("already connected");
      default:
        break;
    }
  }
  retired_session_ = std::move(session_);
  auto session = std::make_unique<internal::Session>(*loop_, options_, role_, events_.get());
  absl::Status started = session->Start(std::move(done));
  if (!started.ok()) {
    retired_session_ = std::move(session);
    return started;
  }
  session_ = std::move(session);
  return absl::OkStatus();
}

absl::StatusOr<std::uint64_t> Client::Ping(std::chrono::milliseconds timeout) {
  if (absl::Status s = CheckMayBlock("Ping"); !s.ok()) return s;
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  internal::Session* session = session_.get();
  session->StartPing();
  loop_->RunUntil([&] { return session->ping_done() || !session->ready(); }, timeout);
  if (session->ping_done()) return session->ping_rtt_ns();
  if (!session->ready()) return session->end_status();
  return absl::DeadlineExceededError("no Pong within " + std::to_string(timeout.count()) + " ms");
}

absl::StatusOr<wire::StatsReply> Client::Stats(std::chrono::milliseconds timeout) {
  if (absl::Status s = CheckMayBlock("Stats"); !s.ok()) return s;
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  internal::Session* session = session_.get();
  // The daemon answers a page of clients at a time; gather them all.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  wire::StatsReply all;
  std::uint64_t next = 0;
  do {
    session->RequestStats(next);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    loop_->RunUntil([&] { return session->stats_done() || !session->ready(); },
                    std::max(left, std::chrono::milliseconds(0)));
    if (!session->stats_done()) {
      if (!session->ready()) return session->end_status();
      return absl::DeadlineExceededError("no StatsReply within " +
                                         std::to_string(timeout.count()) + " ms");
    }
    wire::StatsReply page = session->TakeStats();
    *all.mutable_total() = page.total();
    if (page.has_lockstep()) *all.mutable_lockstep() = page.lockstep();
    for (wire::ClientStats& c : *page.mutable_clients()) *all.add_clients() = std::move(c);
    next = page.next_client();
  } while (next != 0);
  return all;
}

absl::Status Client::Close(std::chrono::milliseconds timeout) {
  if (session_ == nullptr) return absl::OkStatus();
  internal::Session* session = session_.get();
  const absl::Status closed = absl::FailedPreconditionError("the client is closed");
  if (session->state() == internal::Session::State::kConnecting) {
    session->Abort(absl::CancelledError("closed while connecting"));
    return absl::OkStatus();
  }
  if (!session->ready()) return absl::OkStatus();
  HandleClosing();
  if (loop_->in_loop()) {
    // Cannot wait here: hand Bye to the kernel and close.
    session->SendBye();
    session->Abort(closed);
    return absl::OkStatus();
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
  };
  // Bye travels on ctrl and could overtake sends still queued on the send
  // channel: let those reach the kernel first.
  loop_->RunUntil(
      [&] {
        wire::FramedStream* send = session->send_stream();
        return !session->ready() || send == nullptr || send->pending_bytes() == 0;
      },
      remaining());
  if (!session->ready()) return absl::OkStatus();
  session->SendBye();
  const bool clean = loop_->RunUntil(
      [&] { return session->state() == internal::Session::State::kClosed; }, remaining());
  if (!clean) {
    session->Abort(closed);
    return absl::DeadlineExceededError("the daemon did not close the session within " +
                                       std::to_string(timeout.count()) + " ms after Bye");
  }
  return absl::OkStatus();
}

void Client::Disconnect() {
  if (session_ != nullptr) {
    session_->Abort(absl::UnavailableError("disconnected by the client"));
  }
}

void Client::OnError(std::function<void(const absl::Status&)> callback) {
  on_error_ = std::move(callback);
}

bool Client::connected() const { return session_ != nullptr && session_->ready(); }

bool Client::resumed() const { return session_ != nullptr && session_->welcome().resumed(); }

const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& Client::simulators() const {
  return session_ != nullptr ? session_->welcome().simulators()
                             : wire::Welcome::default_instance().simulators();
}

const wire::EffectiveConfig& Client::daemon_config() const {
  return session_ != nullptr ? session_->welcome().config()
                             : wire::EffectiveConfig::default_instance();
}

void Client::HandleChannelError(wire::Channel channel, const wire::Error& error) {
  ReportError(internal::StatusFromWireError(
      error, std::string("daemon error on ") + wire::Channel_Name(channel) + " channel"));
}

void Client::ReportError(const absl::Status& status) {
  if (on_error_) on_error_(status);
}

absl::Status Client::WaitForRecv(const char* call, const std::function<bool()>& have,
                                 std::uint32_t pull_batch, std::chrono::milliseconds timeout) {
  if (absl::Status s = CheckMayBlock(call); !s.ok()) return s;
  if (absl::Status s = CheckConnected(); !s.ok()) return s;
  internal::Session* s = session_.get();
  const bool pull = options_.mode == DeliveryMode::kPull;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (bool first = true;; first = false) {
    // Rounded up: a wait of 1 ms must not end before the loop ran once. A
    // wait of 0 ms still runs one pass that handles the I/O already ready
    // (what the daemon handed over must be taken, or a lockstep app's
    // blocked report never counts).
    const auto left = std::max(
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()),
        std::chrono::milliseconds(0));
    if (left.count() == 0 && !first) break;
    // A long-poll answered empty (the daemon's timeout, or an earlier call's
    // poll that outlived it) ends the wait below: ask again for the time left.
    if (pull && !s->pull_outstanding()) {
      s->WritePullRequest(pull_batch, static_cast<std::uint32_t>(left.count()));
    }
    loop_->RunUntil([&] { return have() || !s->ready() || (pull && !s->pull_outstanding()); },
                    left);
    if (have() || !s->ready()) break;
  }
  if (have()) return absl::OkStatus();
  if (!s->ready()) return s->end_status();
  return absl::DeadlineExceededError(std::string(call) + ": nothing within " +
                                     std::to_string(timeout.count()) + " ms");
}

absl::Status Client::CheckMayBlock(const char* call) const {
  if (!loop_->in_loop()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      std::string(call) + " blocks and cannot be called from inside a loop callback");
}

absl::Status Client::CheckConnected() const {
  if (session_ == nullptr) return absl::FailedPreconditionError("not connected: call Connect first");
  return session_->end_status();
}

}  // namespace trestle
