#include "message_ledger.h"

namespace trestle::daemon {

MessageRecord* MessageLedger::Open(std::uint64_t id, std::uint32_t src) {
  MessageRecord* r = messages_.Insert(id);
  if (r != nullptr) r->src = src;
  return r;
}

void MessageLedger::Accept(MessageRecord& r) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.accepted++;
  c.in_flight++;
  totals_.accepted++;
  totals_.in_flight++;
}

void MessageLedger::Reject(std::uint32_t src, std::uint64_t id) {
  apps_.at(src).counters.rejected++;
  totals_.rejected++;
  messages_.Erase(id);
}

void MessageLedger::Finish(const MessageRecord& r, std::uint64_t MessageCounters::*which) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.*which += 1;
  c.in_flight--;
  totals_.*which += 1;
  totals_.in_flight--;
}

void MessageLedger::Delivered(MessageRecord& r, std::uint64_t now_ns) {
  Finish(r, &MessageCounters::delivered);
  apps_.at(r.dst).counters.received++;
  totals_.received++;
  latencies_.Record(r, now_ns);
}

void MessageLedger::Dropped(MessageRecord& r) { Finish(r, &MessageCounters::dropped); }
void MessageLedger::Expired(MessageRecord& r) { Finish(r, &MessageCounters::expired); }
void MessageLedger::LostInStore(MessageRecord& r) { Finish(r, &MessageCounters::lost_in_store); }

}  // namespace trestle::daemon
