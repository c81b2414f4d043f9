#include "trestle/daemon/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdlib>
#include <functional>

#include "config/config_fields.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "store/redis_payload_store.h"
#include "trestle/daemon/listen_address.h"
#include "trestle/platform/read_file.h"

namespace trestle::daemon {
namespace {
std::string FlagName(const char* key) {
  std::string name = std::string("--") + key;
  for (char& ch : name) if (ch == '_') ch = '-';
  return name;
}

}  // namespace

struct ConfigLoader::FlagValue {
  const ConfigField* field;
  std::string value;
  bool on = false;  // a switch's flag was given
  CLI::Option* option = nullptr;
};

ConfigLoader::ConfigLoader() {
  flags_.reserve(ConfigFields().size());
  for (const ConfigField& f : ConfigFields()) flags_.push_back({&f, {}, false, nullptr});
}

ConfigLoader::~ConfigLoader() = default;

void ConfigLoader::AddFlags(CLI::App& app) {
  app.add_option("-c,--config", config_path_, "YAML configuration file (see deploy/configs/)");
  const DaemonConfig defaults;
  for (FlagValue& flag : flags_) {
    if (flag.field->is_switch) {
      flag.option = app.add_flag(FlagName(flag.field->key), flag.on, flag.field->help);
      continue;
    }
    flag.option = app.add_option(FlagName(flag.field->key), flag.value, flag.field->help);
    const std::string shown = flag.field->get(defaults);
    if (!shown.empty()) flag.option->default_str(shown);
  }
}

absl::Status ConfigLoader::ApplyYaml(const std::string& text, const std::string& origin,
                                     DaemonConfig* config) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": not valid YAML: ", e.what()));
  }
  if (root.IsNull()) return absl::OkStatus();
  if (!root.IsMap()) {
    return absl::InvalidArgumentError(absl::StrCat(origin, ": expected a map of settings"));
  }
  for (const auto& entry : root) {
    if (!entry.first.IsScalar()) {
      return absl::InvalidArgumentError(absl::StrCat(origin, ": every key must be a plain name"));
    }
    const std::string key = entry.first.as<std::string>();
    const ConfigField* field = nullptr;
    for (const ConfigField& f : ConfigFields()) {
      if (key == f.key) field = &f;
    }
    if (field == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown key '", key, "' in ", origin));
    }
    if (!entry.second.IsScalar()) {
      return absl::InvalidArgumentError(absl::StrCat(key, " in ", origin, ": expected a single value"));
    }
    absl::Status s = field->set(entry.second.Scalar(), config);
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat(s.message(), " (in ", origin, ")"));
  }
  return absl::OkStatus();
}

absl::Status ConfigLoader::Validate(const DaemonConfig& config) {
  if (config.store == StoreKind::kRedis && config.store_key_ttl_ms <= config.delivery_ttl_ms) {
    return absl::InvalidArgumentError(absl::StrCat(
        "store_key_ttl_ms: ", config.store_key_ttl_ms, " must be above delivery_ttl_ms (",
        config.delivery_ttl_ms, "): a payload must outlive the wait for its app"));
  }
  if (!config.store_client_url.empty() && config.store != StoreKind::kRedis) {
    return absl::InvalidArgumentError(absl::StrCat(
        "store_client_url: '", config.store_client_url,
        "' needs a Redis store (store: redis://HOST:PORT[/DB]); the store is memory"));
  }
  if (config.federate && config.store != StoreKind::kRedis) {
    return absl::InvalidArgumentError(
        "federate: needs a Redis store (store: redis://HOST:PORT[/DB]) shared by the bridge's "
        "daemons");
  }
  if (config.journal && !config.federate) {
    return absl::InvalidArgumentError(
        "journal: only a federated daemon (federate) keeps a journal; a daemon alone keeps its "
        "messages in its store");
  }
  if (config.federate && config.sim_assignment != SimAssignment::kSystem) {
    return absl::InvalidArgumentError(
        "federate: sim_assignment must be system (one simulator serves the apps of every "
        "daemon); per_node across daemons is not supported yet");
  }
  if (config.lockstep_coordinator &&
      (!config.federate || config.time_mode != wire::TIME_MODE_LOCKSTEP)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lockstep_coordinator: ", *config.lockstep_coordinator,
        " names the coordinator of a lockstep run across daemons: it needs federate and "
        "time_mode lockstep"));
  }
  if (config.federate && config.time_mode == wire::TIME_MODE_LOCKSTEP &&
      !config.lockstep_coordinator) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lockstep_coordinator: a lockstep run across daemons (federate) needs it on every daemon: "
        "the id of the daemon its simulator attaches to (this one is ", config.daemon_id, ")"));
  }
  if (config.federate && config.time_mode == wire::TIME_MODE_LOCKSTEP && !config.coordinates() &&
      (config.lockstep_app_count != 0 || !config.lockstep_app_ids.empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lockstep_apps: the apps a lockstep run waits for are the coordinator's setting (daemon ",
        config.coordinator(), ", lockstep_coordinator); this daemon (", config.daemon_id,
        ") only relays its apps: leave lockstep_apps unset here"));
  }
  const std::pair<const char*, const std::string*> listeners[] = {
      {"listen", &config.listen},
      {"admin_listen", &config.admin_listen},
      {"metrics_listen", &config.metrics_listen}};
  for (const auto& [key, value] : listeners) {
    if (value->empty()) continue;
    auto address = ParseListenAddress(*value);
    if (!address.ok()) return address.status();
    if (!address->loopback && config.auth_token.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "auth_token: required when listening beyond loopback (", key, " is '", *value,
          "'); set auth_token, --auth-token or TRESTLE_TOKEN"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<DaemonConfig> ConfigLoader::Build() const {
  DaemonConfig config;
  if (!config_path_.empty()) {
    absl::StatusOr<std::string> text = platform::ReadFile(config_path_, "config");
    if (!text.ok()) return text.status();
    absl::Status s = ApplyYaml(*text, config_path_, &config);
    if (!s.ok()) return s;
  }
  if (const char* env = std::getenv("TRESTLE_TOKEN"); env != nullptr && *env != '\0') {
    config.auth_token = env;
  }
  for (const FlagValue& flag : flags_) {
    if (flag.option == nullptr || flag.option->count() == 0) continue;
    absl::Status s = flag.field->set(flag.field->is_switch ? std::string("true") : flag.value, &config);
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat(FlagName(flag.field->key), ": ", s.message()));
  }
  absl::Status s = Validate(config);
  if (!s.ok()) return s;
  return config;
}

}  // namespace trestle::daemon
