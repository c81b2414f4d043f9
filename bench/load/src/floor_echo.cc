#include "floor_echo.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "floor_frame.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::bench {

FloorEcho::FloorEcho(uv_loop_t* loop) : loop_(loop), flush_list_(loop) {}

void FloorEcho::Connect(const platform::SocketAddress& relay,
                        std::function<void(const absl::Status&)> connected,
                        std::function<void()> lost) {
  lost_ = std::move(lost);
  stream_ = new FloorStream(loop_, relay.kind == platform::SocketAddress::Kind::kUnix,
                            &flush_list_);
  stream_->set_handler(this);
  stream_->Connect(relay, [this, relay, connected = std::move(connected)](int status) {
    if (status == 0) status = stream_->StartReading();
    if (status != 0) {
      stream_->Close();
      stream_ = nullptr;
      connected(absl::UnavailableError(
          absl::StrCat("cannot connect to ", relay.ToString(), ": ", uv_strerror(status))));
      return;
    }
    char hello[kFloorHelloBytes];
    std::memcpy(hello, &kEchoIdentity, sizeof(hello));
    stream_->Write(hello);
    connected(absl::OkStatus());
  });
}

void FloorEcho::OnFrame(FloorStream& stream, std::span<char> body) {
  if (body.size() < kFloorHeaderBytes) return;
  PutFloorStamp(body.data(), kFloorEchoPostedAt, wire::MonotonicNanos());
  stream.Write(body);
}

void FloorEcho::OnClosed(FloorStream&) {
  stream_ = nullptr;
  if (lost_) lost_();
}

void FloorEcho::Close() {
  if (stream_ != nullptr) stream_->Close();
  stream_ = nullptr;
  flush_list_.Close();
}

}  // namespace trestle::bench
