#include "delivery_acks.h"

#include "session.h"

namespace trestle::internal {

DeliveryAcks::~DeliveryAcks() {
  if (scheduled_) loop_.CancelBeforeSleep(this);
}

bool DeliveryAcks::Take(std::uint64_t delivery_seq) {
  if (delivery_seq == 0) return true;
  const bool fresh = delivery_seq > highest_seen_;
  if (fresh) {
    highest_seen_ = delivery_seq;
  } else {
    // Written again: the daemon did not hear of it, so say it once more.
    resend_ack_ = true;
  }
  if (!scheduled_) {
    scheduled_ = true;
    loop_.ScheduleBeforeSleep(this);
  }
  return fresh;
}

void DeliveryAcks::Reset() {
  highest_seen_ = 0;
  highest_acked_ = 0;
  resend_ack_ = false;
}

void DeliveryAcks::Flush() {
  if (scheduled_) loop_.CancelBeforeSleep(this);
  BeforeLoopSleeps();
}

void DeliveryAcks::BeforeLoopSleeps() {
  scheduled_ = false;
  Session* session = current_session_();
  if (session == nullptr || !session->ready()) return;
  if (highest_seen_ <= highest_acked_ && !resend_ack_) return;
  wire::FramedStream* stream = session->recv_stream();
  if (stream == nullptr) return;
  wire::Frame frame;
  frame.mutable_ack()->set_delivery_seq(highest_seen_);
  stream->Write(frame);
  highest_acked_ = highest_seen_;
  resend_ack_ = false;
}

}  // namespace trestle::internal
