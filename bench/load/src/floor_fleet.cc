#include "floor_fleet.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "floor_frame.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::bench {
namespace {

// A sender whose output is above this waits for a later loop pass, as an
// AppClient does above its high watermark.
constexpr std::size_t kHighWatermark = 8u << 20;

}  // namespace

FloorFleet::FloorFleet(EventLoop& loop, platform::SocketAddress relay)
    : loop_(loop), relay_(std::move(relay)), flush_list_(loop.uv_loop()) {}

FloorFleet::~FloorFleet() {
  closing_ = true;
  for (FloorStream* s : streams_) {
    if (s != nullptr) s->Close();
  }
  flush_list_.Close();
  loop_.RunFor(std::chrono::milliseconds(1));
}

void FloorFleet::Create(std::uint32_t apps, std::uint32_t stalled, Handlers handlers) {
  handlers_ = std::move(handlers);
  readers_ = apps - stalled;
  streams_.assign(apps, nullptr);
}

absl::Status FloorFleet::ConnectAsync(std::uint32_t app, std::function<void(absl::Status)> done) {
  auto* stream = new FloorStream(loop_.uv_loop(),
                                 relay_.kind == platform::SocketAddress::Kind::kUnix, &flush_list_);
  stream->set_handler(this);
  stream->identity = app;
  stream->Connect(relay_, [this, app, stream, done = std::move(done)](int status) {
    if (status == 0 && app < readers_) status = stream->StartReading();
    if (status != 0) {
      stream->Close();
      done(absl::UnavailableError(absl::StrCat("app ", app, ": cannot connect to the floor relay at ",
                                               relay_.ToString(), ": ", uv_strerror(status))));
      return;
    }
    char hello[kFloorHelloBytes];
    std::memcpy(hello, &app, sizeof(hello));
    stream->Write(hello);
    streams_[app] = stream;
    done(absl::OkStatus());
  });
  return absl::OkStatus();
}

absl::StatusOr<std::uint64_t> FloorFleet::Send(std::uint32_t sender, std::uint32_t receiver,
                                               std::string_view payload) {
  FloorStream* stream = streams_[sender];
  if (stream == nullptr) {
    return absl::UnavailableError(absl::StrCat("app ", sender, " is not connected"));
  }
  if (stream->pending_bytes() > kHighWatermark) {
    return absl::ResourceExhaustedError(absl::StrCat("app ", sender, ": send backlog full"));
  }
  FloorHeader header;
  header.dst = receiver;
  header.src = sender;
  header.id = next_id_++;
  header.app_sent = wire::MonotonicNanos();
  stream->Write(std::span<const char>(reinterpret_cast<const char*>(&header), sizeof(header)),
                std::span<const char>(payload.data(), payload.size()));
  return header.id;
}

void FloorFleet::OnFrame(FloorStream& stream, std::span<char> body) {
  if (body.size() < kFloorHeaderBytes) return;
  FloorHeader header;
  std::memcpy(&header, body.data(), sizeof(header));
  arrival_.id = header.id;
  arrival_.payload.assign(body.data() + kFloorHeaderBytes, body.size() - kFloorHeaderBytes);
  // The relay stands where trestled does, the echo where the simulator does.
  arrival_.stamps = Stamps{header.app_sent,     header.relay_accepted,  header.relay_handed,
                           header.echo_posted,  header.relay_delivered, wire::MonotonicNanos()};
  handlers_.on_arrival(stream.identity, arrival_);
}

void FloorFleet::OnClosed(FloorStream& stream) {
  if (stream.identity < streams_.size()) streams_[stream.identity] = nullptr;
  if (!closing_) {
    handlers_.on_error(absl::UnavailableError(
        absl::StrCat("the floor relay closed app ", stream.identity, "'s connection")));
  }
}

}  // namespace trestle::bench
