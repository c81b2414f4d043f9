// The frame codec: encoding and decoding the frames of the data path.
//
//   BM_EncodeSend/64, /65536          an app's Send frame with that payload
//   BM_DecodeSend/64, /65536          the same frame through FrameDecoder
//   BM_EncodeDeliverBatch/256         a DeliverBatch of 256 64-byte deliveries
//   BM_DecodeDeliverBatch/256
//
// Items/s counts frames (batches count their deliveries); bytes/s counts
// encoded bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "trestle.pb.h"
#include "trestle/wire/frame_decoder.h"
#include "trestle/wire/frame_encoder.h"

namespace {

using trestle::wire::AppendFrame;
using trestle::wire::FrameDecoder;

constexpr std::uint32_t kMaxFrame = 16u << 20;

trestle::wire::Frame MakeSend(std::size_t payload_bytes) {
  trestle::wire::Frame frame;
  trestle::wire::Send* send = frame.mutable_send();
  send->set_dst("n4711");
  send->set_payload(std::string(payload_bytes, 'p'));
  send->set_t_send(123'456'789);
  send->set_app_sent(987'654'321'000);
  return frame;
}

trestle::wire::Frame MakeDeliverBatch(int count) {
  trestle::wire::Frame frame;
  trestle::wire::DeliverBatch* batch = frame.mutable_deliveries();
  for (int i = 0; i < count; ++i) {
    trestle::wire::Delivery* d = batch->add_deliveries();
    d->set_id((std::uint64_t{7} << 32) | static_cast<std::uint64_t>(i));
    d->set_src("n17");
    d->set_dst("n4711");
    d->set_payload(std::string(64, 'p'));
    d->set_t_send(1'000'000 + static_cast<std::uint64_t>(i));
    d->set_t_deliver(2'000'000 + static_cast<std::uint64_t>(i));
    trestle::wire::Stamps* s = d->mutable_stamps();
    s->set_app_sent(10);
    s->set_daemon_accepted(20);
    s->set_sim_handed(30);
    s->set_sim_posted(40);
    s->set_daemon_delivered(50);
  }
  return frame;
}

void Encode(benchmark::State& state, const trestle::wire::Frame& frame, std::int64_t items) {
  std::string out;
  std::size_t bytes = 0;
  for (auto _ : state) {
    out.clear();  // keeps the capacity, as a connection's write buffer does
    bytes = AppendFrame(frame, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * items);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

// Feeds the encoded frame to a decoder as one read and takes the frame out.
void Decode(benchmark::State& state, const trestle::wire::Frame& frame, std::int64_t items) {
  std::string encoded;
  AppendFrame(frame, &encoded);
  FrameDecoder decoder(kMaxFrame);
  trestle::wire::Frame out;
  for (auto _ : state) {
    std::size_t available = 0;
    char* space = decoder.WritableSpace(encoded.size(), &available);
    std::memcpy(space, encoded.data(), encoded.size());
    decoder.Commit(encoded.size());
    if (decoder.Next(&out) != FrameDecoder::Result::kFrame) {
      state.SkipWithError("decode failed");
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * items);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(encoded.size()));
}

void BM_EncodeSend(benchmark::State& state) {
  Encode(state, MakeSend(static_cast<std::size_t>(state.range(0))), 1);
}
BENCHMARK(BM_EncodeSend)->Arg(64)->Arg(64 << 10);

void BM_DecodeSend(benchmark::State& state) {
  Decode(state, MakeSend(static_cast<std::size_t>(state.range(0))), 1);
}
BENCHMARK(BM_DecodeSend)->Arg(64)->Arg(64 << 10);

void BM_EncodeDeliverBatch(benchmark::State& state) {
  Encode(state, MakeDeliverBatch(static_cast<int>(state.range(0))), state.range(0));
}
BENCHMARK(BM_EncodeDeliverBatch)->Arg(256);

void BM_DecodeDeliverBatch(benchmark::State& state) {
  Decode(state, MakeDeliverBatch(static_cast<int>(state.range(0))), state.range(0));
}
BENCHMARK(BM_DecodeDeliverBatch)->Arg(256);

}  // namespace
