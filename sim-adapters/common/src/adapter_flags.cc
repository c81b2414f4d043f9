#include "trestle/adapter/adapter_flags.h"

namespace trestle::adapter {

void ConnectionFlags::AddTo(CLI::App* command, const std::string& default_id,
                            const std::string& default_daemon, const std::string& group) {
  client.client_id = default_id;
  client.daemon = default_daemon;
  CLI::Option* daemon =
      command->add_option("--daemon", client.daemon, "daemon address, HOST:PORT or unix:PATH");
  if (!default_daemon.empty()) daemon->capture_default_str();
  CLI::Option* pull_flag =
      command->add_flag("--pull", pull, "fetch transits (long-poll) instead of having them pushed");
  CLI::Option* id = command->add_option("--id", client.client_id, "simulator name (client id)")
                        ->capture_default_str();
  CLI::Option* token =
      command->add_option("--token", client.auth_token, "auth token (default: $TRESTLE_TOKEN)");
  // CLI11 hides options whose group is "": leave them in the default group.
  if (group.empty()) return;
  for (CLI::Option* option : {daemon, pull_flag, id, token}) option->group(group);
}

ClientOptions ConnectionFlags::Resolve() const {
  ClientOptions options = client;
  options.mode = pull ? DeliveryMode::kPull : DeliveryMode::kPush;
  return options;
}

void EndpointAdapterFlags::AddTo(CLI::App* command, const std::string& group) {
  CLI::Option* map_file = command->add_option(
      "--map", map,
      "YAML file of 'client-id: endpoint' lines (default: an id ending in a number n, e.g. "
      "rank-7, is endpoint n; other ids take free endpoints in order of first appearance)");
  CLI::Option* time = command->add_option(
      "--time-mode,--time", time_mode,
      "wallclock, paced, virtual or lockstep: must be the daemon's (default: the daemon's)");
  CLI::Option* dilation_option =
      command
          ->add_option("--dilation", dilation,
                       "paced: wall seconds per virtual second (outcome at start + t_deliver x X)")
          ->capture_default_str()
          ->check(CLI::PositiveNumber);
  CLI::Option* loss = command
                          ->add_option("--loss-rate", loss_rate,
                                       "drop each message with probability P (0..1, seeded), "
                                       "reported as DROPPED")
                          ->capture_default_str()
                          ->check(CLI::Range(0.0, 1.0));
  if (group.empty()) return;
  for (CLI::Option* option : {map_file, time, dilation_option, loss}) option->group(group);
}

absl::StatusOr<SimAdapterOptions> EndpointAdapterFlags::Resolve(SimAdapterOptions base) const {
  if (!time_mode.empty()) {
    absl::StatusOr<wire::TimeMode> mode = wire::ParseTimeMode(time_mode);
    if (!mode.ok()) return mode.status();
    base.time_mode = *mode;
  }
  base.dilation = dilation;
  base.loss_rate = loss_rate;
  if (absl::Status s = base.Validate(); !s.ok()) return s;
  return base;
}

std::string EndpointAdapterFlags::MapDescription() const {
  return map.empty() ? "by the number ending each id, else in order of first appearance" : map;
}

absl::StatusOr<EndpointMap> EndpointAdapterFlags::LoadMap(std::uint32_t endpoint_count) const {
  if (map.empty()) return EndpointMap(endpoint_count);
  return EndpointMap::FromFile(map, endpoint_count);
}

}  // namespace trestle::adapter
