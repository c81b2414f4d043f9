// FakeLockstepLink: a LockstepLink (daemon/src/lockstep/lockstep_link.h) that
// records what lockstep time asks of the federation, in order: each report
// with the daemon it goes to, each released delivery and drop report with
// where it goes. For unit tests of the TimeCoordinator and LockstepRelay.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

#include "lockstep/lockstep_link.h"
#include "lockstep/time_entry.h"
#include "messages/message_table.h"
#include "time_entry_text.h"

namespace trestle::daemon {

class FakeLockstepLink final : public LockstepLink {
 public:
  struct Sent {
    std::uint32_t daemon;
    TimeEntry entry;
  };
  struct Delivered {
    std::uint64_t id;
    std::optional<std::uint32_t> daemon;
    bool drop_report;
  };

  void SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) override {
    sent.push_back({daemon, entry});
  }
  void Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) override {
    delivered.push_back({r.id, daemon, false});
  }
  void DeliverDropReport(MessageRecord& r, std::uint32_t daemon) override {
    delivered.push_back({r.id, daemon, true});
  }

  // The reports sent so far, "to <daemon>: <TimeEntryText>", and forgets them.
  std::vector<std::string> TakeSent() {
    std::vector<std::string> text;
    for (const Sent& s : sent) text.push_back(absl::StrCat("to ", s.daemon, ": ", TimeEntryText(s.entry)));
    sent.clear();
    return text;
  }

  std::vector<Sent> sent;
  std::vector<Delivered> delivered;
};

}  // namespace trestle::daemon
