// Internal to trestle_fabric_cli: the subcommand registrations and the flags
// that describe, sweep and the live adapter share.
#ifndef TRESTLE_FABRIC_CLI_COMMANDS_H_
#define TRESTLE_FABRIC_CLI_COMMANDS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/fabric_params.h"
#include "trestle/fabric/message_ordering.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/routing.h"

namespace trestle::fabric::cli {

// --link-bw and --link-latency: defaults for link values a spec leaves unset.
struct LinkFlags {
  std::string link_bw;
  std::string link_latency;

  void AddTo(CLI::App* command);
  absl::StatusOr<FabricParams> Resolve() const;
};

// --routing, --seed and --endpoint-delay: how each message is priced.
struct PricingFlags {
  std::string routing = "minimal";
  std::uint64_t seed = 1;
  std::string endpoint_delay = "0ns";

  struct Resolved {
    RoutingKind routing = RoutingKind::kMinimal;
    std::uint64_t seed = 1;
    Duration endpoint_delay;
  };

  // `endpoint_delay_help` says what the overhead means to this command.
  void AddTo(CLI::App* command, const std::string& endpoint_delay_help);
  absl::StatusOr<Resolved> Resolve() const;
};

// --ordering connection|message: whether a connection's messages arrive in
// order (MessageOrdering; default connection).
struct OrderingFlag {
  std::string ordering = "connection";

  void AddTo(CLI::App* command, const std::string& group);
  absl::StatusOr<MessageOrdering> Resolve() const { return ParseMessageOrdering(ordering); }
};

// --buffer, --cc-queue, --packet-size and --burstiness: the flow model's
// queues (QueueModelOptions, whose defaults they show).
struct QueueFlags {
  std::string buffer;
  std::string cc_queue;
  std::string packet_size;
  double burstiness = QueueModelOptions{}.burstiness;
  CLI::Option* packet_size_option = nullptr;  // set by AddTo

  QueueFlags();
  void AddTo(CLI::App* command, const std::string& group);
  // Errors name the flag.
  absl::StatusOr<QueueModelOptions> Resolve() const;
};

// --cc, --class (repeatable) and --classes: the flow model's congestion
// control and traffic classes (TrafficClassTable; --class entries come after
// the file's); and its queues (QueueFlags).
struct FlowFlags {
  std::string cc = "on";
  std::vector<std::string> classes;
  std::string classes_file;
  QueueFlags queues;

  void AddTo(CLI::App* command, const std::string& group);
  // Errors name the flag's value or the file.
  absl::StatusOr<FlowModelOptions> Resolve() const;
};

// Prints "error: MESSAGE" to stderr and throws CLI::RuntimeError carrying
// the message, exit code 1.
[[noreturn]] void Fail(const absl::Status& status);

// The value, or Fail(status).
template <typename T>
T OrFail(absl::StatusOr<T> value) {
  if (!value.ok()) Fail(value.status());
  return *std::move(value);
}

void RegisterDescribeCommand(CLI::App* fabric);
void RegisterSweepCommand(CLI::App* app);
void RegisterCongestionCommand(CLI::App* app);
// Makes `fabric` without a subcommand run the live adapter (adapter_command.cc).
void AddAdapterOptions(CLI::App* fabric);

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_COMMANDS_H_
