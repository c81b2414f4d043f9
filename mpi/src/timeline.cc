#include "timeline.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "trestle/platform/check.h"

namespace trestle::mpi {
namespace {

constexpr std::size_t kBlock = 64 * 1024;
constexpr std::uint64_t kFlowIdMask = (std::uint64_t{1} << 53) - 1;

// splitmix64's finalizer: a stable mix (the same in every process, unlike
// absl::Hash).
std::uint64_t Mix(std::uint64_t h, std::uint64_t v) {
  std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Timeline>> Timeline::Open(const std::string& dir, int world_rank) {
  const std::string path = absl::StrCat(dir, "/rank-", world_rank, ".json");
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write the timeline to ", path, ": ", std::strerror(errno)));
  }
  return std::make_unique<Timeline>(world_rank, out);
}

Timeline::Timeline(int world_rank, std::FILE* out, std::chrono::milliseconds flush_every)
    : world_rank_(world_rank), out_(out), flush_every_(flush_every) {
  buffer_.reserve(kBlock + 1024);
  absl::StrAppend(&buffer_, R"({"ph":"M","name":"thread_name","pid":0,"tid":)", world_rank_,
                  R"(,"args":{"name":"rank )", world_rank_, "\"}}\n");
  absl::StrAppend(&buffer_, R"({"ph":"M","name":"thread_sort_index","pid":0,"tid":)", world_rank_,
                  R"(,"args":{"sort_index":)", world_rank_, "}}\n");
  Flush();  // the track is named even if nothing else gets written
}

Timeline::~Timeline() {
  Flush();
  std::fclose(out_);
}

void Timeline::Flush() {
  if (!buffer_.empty()) std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  buffer_.clear();
  std::fflush(out_);
  flushed_ = std::chrono::steady_clock::now();
}

std::uint64_t Timeline::FlowId(const MirrorHeader& h, int dst_world) {
  std::uint64_t id = Mix(static_cast<std::uint64_t>(h.kind), h.comm_id);
  id = Mix(id, static_cast<std::uint32_t>(h.src_world));
  id = Mix(id, static_cast<std::uint32_t>(dst_world));
  id = Mix(id, static_cast<std::uint32_t>(h.label));
  id = Mix(id, h.number);
  return id & kFlowIdMask;
}

void Timeline::AppendTime(const char* key, std::uint64_t ns) {
  absl::StrAppend(&buffer_, ",\"", key, "\":", ns / 1000, ".",
                  absl::Dec(ns % 1000, absl::kZeroPad3));
}

void Timeline::BeginEvent(char ph, std::uint64_t t) {
  absl::StrAppend(&buffer_, "{\"ph\":\"", absl::string_view(&ph, 1),
                  "\",\"pid\":0,\"tid\":", world_rank_);
  AppendTime("ts", t);
}

void Timeline::EndEvent() {
  buffer_.append("}\n");
  if (buffer_.size() >= kBlock) {
    std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
    buffer_.clear();
  }
}

void Timeline::CallStarts(const char* name, std::uint64_t t) {
  TRESTLE_CHECK(call_ == nullptr, absl::StrCat(name, " starts inside ", call_));
  if (std::chrono::steady_clock::now() - flushed_ >= flush_every_) Flush();
  if (t > last_end_) {
    BeginEvent('X', last_end_);
    AppendTime("dur", t - last_end_);
    buffer_.append(R"(,"name":"compute","cat":"compute")");
    EndEvent();
  }
  call_ = name;
  call_start_ = t;
  bytes_out_ = messages_out_ = 0;
  has_comm_ = false;
  peer_out_ = peer_in_ = kNoPeer;
  // Taken in between calls (in a gettimeofday): this call's.
  messages_in_ = arrivals_.size();
  for (const Arrival& a : arrivals_) NotePeer(&peer_in_, a.src_world);
}

void Timeline::CallEnds(std::uint64_t t) {
  TRESTLE_CHECK(call_ != nullptr, "a call ends that never started");
  TRESTLE_CHECK(t >= call_start_, absl::StrCat(call_, " ends before it starts"));
  BeginEvent('X', call_start_);
  AppendTime("dur", t - call_start_);
  absl::StrAppend(&buffer_, R"(,"name":")", call_, R"(","cat":"mpi")");
  bool any_arg = false;
  auto arg = [&](const char* key) {
    absl::StrAppend(&buffer_, any_arg ? ",\"" : ",\"args\":{\"", key, "\":");
    any_arg = true;
  };
  if (has_comm_) {
    arg("comm");
    absl::StrAppend(&buffer_, "\"0x", absl::Hex(comm_), "\"");
  }
  if (const int peer = messages_out_ > 0 ? peer_out_ : peer_in_; peer >= 0) {
    arg("peer");
    absl::StrAppend(&buffer_, peer);
  }
  if (messages_out_ + messages_in_ > 0) {
    arg("messages_out");
    absl::StrAppend(&buffer_, messages_out_, R"(,"bytes_out":)", bytes_out_, R"(,"messages_in":)",
                    messages_in_);
  }
  if (any_arg) buffer_.push_back('}');
  EndEvent();
  for (const Arrival& a : arrivals_) {
    BeginEvent('f', std::clamp(a.t_deliver, call_start_, t));
    absl::StrAppend(&buffer_, R"(,"bp":"e","name":"message","cat":"mpi","id":)", a.id);
    EndEvent();
  }
  arrivals_.clear();
  call_ = nullptr;
  last_end_ = t;
}

void Timeline::Sent(const MirrorHeader& h, int dst_world, std::uint64_t t) {
  if (h.kind == MirrorHeader::Kind::kCollectivesEnd) return;
  ++messages_out_;
  bytes_out_ += h.bytes;
  NotePeer(&peer_out_, dst_world);
  BeginEvent('s', t);
  absl::StrAppend(&buffer_, R"(,"name":"message","cat":"mpi","id":)", FlowId(h, dst_world),
                  R"(,"args":{"to":)", dst_world, R"(,"bytes":)", h.bytes, "}");
  EndEvent();
}

void Timeline::Arrived(const MirrorHeader& h, std::uint64_t t) {
  if (h.kind == MirrorHeader::Kind::kCollectivesEnd) return;
  ++messages_in_;
  NotePeer(&peer_in_, h.src_world);
  arrivals_.push_back({FlowId(h, world_rank_), t, h.src_world});
}

void Timeline::NoteComm(std::uint64_t comm_id) {
  if (call_ == nullptr || has_comm_) return;
  has_comm_ = true;
  comm_ = comm_id;
}

void Timeline::NotePeer(int* peer, int world_rank) {
  if (*peer == kNoPeer) {
    *peer = world_rank;
  } else if (*peer != world_rank) {
    *peer = kSeveralPeers;
  }
}

}  // namespace trestle::mpi
