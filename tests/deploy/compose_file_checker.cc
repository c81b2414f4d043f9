#include "compose_file_checker.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "shell_words.h"
#include "trestle/platform/read_file.h"

namespace trestle::deploy {
namespace {

// node[key], or a null node if `node` is no map or has no such key (yaml-cpp
// throws on most calls to the "zombie" node a missing key gives).
YAML::Node Child(const YAML::Node& node, const std::string& key) {
  if (!node.IsMap()) return YAML::Node();
  YAML::Node child = node[key];
  return child.IsDefined() ? child : YAML::Node();
}

struct HostPort {
  std::string host;
  int port = 0;
};

// "0.0.0.0:7878", "[::]:7878", "trestled-a:7879", "redis://redis:6379/0"
// (scheme and /DB dropped; no port: 0).
std::optional<HostPort> ParseHostPort(std::string_view text) {
  if (auto scheme = text.find("://"); scheme != std::string_view::npos) {
    text = text.substr(scheme + 3);
    text = text.substr(0, text.find('/'));
  }
  HostPort out;
  std::string_view port;
  if (!text.empty() && text[0] == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    out.host = std::string(text.substr(1, close - 1));
    if (close + 1 < text.size() && text[close + 1] == ':') port = text.substr(close + 2);
  } else {
    const auto colon = text.rfind(':');
    out.host = std::string(text.substr(0, colon));
    if (colon != std::string_view::npos) port = text.substr(colon + 1);
  }
  if (!port.empty() && !absl::SimpleAtoi(absl::string_view(port.data(), port.size()), &out.port)) return std::nullopt;
  if (out.host.empty()) return std::nullopt;
  return out;
}

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
}

// The flags whose value is an address served by another service, and the
// listening flag of that service that must match.
struct Reference {
  const char* client_flag;
  const char* listen_flag;
};
constexpr Reference kReferences[] = {{"--daemon", "--listen"}, {"--admin", "--admin-listen"}};
constexpr const char* kListenFlags[] = {"--listen", "--admin-listen", "--metrics-listen"};

// `binary` appears in a Dockerfile's text as a path's last part or a word.
bool DockerfileMentions(std::string_view dockerfile, std::string_view binary) {
  for (std::size_t at = dockerfile.find(binary); at != std::string_view::npos;
       at = dockerfile.find(binary, at + 1)) {
    const char before = at == 0 ? ' ' : dockerfile[at - 1];
    const std::size_t end = at + binary.size();
    const char after = end >= dockerfile.size() ? ' ' : dockerfile[end];
    if ((before == '/' || before == ' ' || before == '"') &&
        std::string_view(" \t\n\\\",]").find(after) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// A project command found in a service, with where it came from.
struct CheckedCommand {
  std::string where;
  bool health = false;  // from the health check (needs no depends_on)
  CommandFlagChecker::ParsedCommand parsed;
};

struct Service {
  std::string name;
  std::string where;  // "docker-compose.yml, service trestled-a"
  YAML::Node node;
  bool ours = false;
  std::string dockerfile_text;  // "" if no build or unreadable
  std::map<std::string, std::string> environment;
  std::set<std::string> depends_on;
  std::vector<CheckedCommand> commands;  // [0] is `command` when it is ours
  bool needs_token = false;

  // The service's command if it listens (has --listen, e.g. trestled).
  const CommandFlagChecker::ParsedCommand* Daemon() const {
    if (commands.empty() || commands[0].health || !commands[0].parsed.ValueOf("--listen")) {
      return nullptr;
    }
    return &commands[0].parsed;
  }

  bool Has(const char* key) const { return node[key].IsDefined() && !node[key].IsNull(); }
};

// The words of a compose `command` / `entrypoint` value: a list, or a string
// that Compose splits like a shell would (but runs without one).
std::vector<std::string> Words(const YAML::Node& node, const std::string& where,
                               std::vector<std::string>* errors) {
  std::vector<std::string> words;
  if (!node.IsDefined() || node.IsNull()) return words;
  if (node.IsSequence()) {
    for (const YAML::Node& w : node) words.push_back(w.as<std::string>());
    return words;
  }
  if (!node.IsScalar()) {
    errors->push_back(absl::StrCat(where, ": expected a string or a list"));
    return words;
  }
  auto split = SplitShellCommands(node.Scalar());
  if (!split.ok()) {
    errors->push_back(absl::StrCat(where, ": ", split.status().message()));
  } else if (split->size() > 1) {
    errors->push_back(absl::StrCat(where, ": holds ", split->size(),
                                   " commands, but Compose runs no shell (use sh -c)"));
  } else if (split->size() == 1) {
    words = std::move(split->front().words);
  }
  return words;
}

}  // namespace

ComposeFileChecker::ComposeFileChecker(CommandFlagChecker* flags, std::string base_dir)
    : flags_(flags), base_dir_(std::move(base_dir)) {}

ComposeFileChecker::Report ComposeFileChecker::Check(std::string_view yaml_text,
                                                     const std::string& file_name) {
  Report report;
  std::vector<std::string>& errors = report.errors;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    errors.push_back(absl::StrCat(file_name, ": not valid YAML: ", e.what()));
    return report;
  }
  if (!root.IsMap() || !Child(root, "services").IsMap() || Child(root, "services").size() == 0) {
    errors.push_back(absl::StrCat(file_name, ": no `services` map"));
    return report;
  }

  try {
    CheckServices(root, file_name, &report);
  } catch (const YAML::Exception& e) {  // a value of the wrong shape (as<>)
    errors.push_back(absl::StrCat(file_name, ": unexpected YAML: ", e.what()));
  }
  return report;
}

void ComposeFileChecker::CheckServices(const YAML::Node& root, const std::string& file_name,
                                       Report* report_out) {
  Report& report = *report_out;
  std::vector<std::string>& errors = report.errors;
  // Pass 1: each service on its own.
  std::set<std::string> built_images;
  for (const auto& entry : Child(root, "services")) {
    const YAML::Node& node = entry.second;
    if (node.IsMap() && !Child(node, "build").IsNull() && Child(node, "image").IsScalar()) {
      built_images.insert(Child(node, "image").Scalar());
    }
  }
  std::map<std::string, Service> services;
  for (const auto& entry : Child(root, "services")) {
    Service s;
    s.name = entry.first.as<std::string>();
    s.where = absl::StrCat(file_name, ", service ", s.name);
    s.node = entry.second;
    ++report.services;
    if (!s.node.IsMap()) {
      errors.push_back(absl::StrCat(s.where, ": not a map"));
      continue;
    }
    if (!Child(s.node, "<<").IsNull()) {
      errors.push_back(absl::StrCat(s.where,
                                    ": uses a YAML merge key (<<), which this checker cannot "
                                    "apply; use aliases of whole values (build: *anchor)"));
    }
    // image / build, and the build's Dockerfile.
    if (!s.Has("image") && !s.Has("build")) {
      errors.push_back(absl::StrCat(s.where, ": has neither `image` nor `build`"));
    }
    if (s.Has("build")) {
      const YAML::Node build = Child(s.node, "build");
      std::string context = ".";
      std::string dockerfile = "Dockerfile";
      if (build.IsScalar()) {
        context = build.Scalar();
      } else if (build.IsMap()) {
        if (Child(build, "context").IsScalar()) context = Child(build, "context").Scalar();
        if (Child(build, "dockerfile").IsScalar()) dockerfile = Child(build, "dockerfile").Scalar();
      }
      const std::filesystem::path path =
          std::filesystem::path(base_dir_) / context / dockerfile;
      absl::StatusOr<std::string> text = platform::ReadFile(path.string());
      if (!text.ok()) {
        errors.push_back(absl::StrCat(s.where, ": build: Dockerfile ", path.string(),
                                      " does not exist"));
      } else {
        s.dockerfile_text = *std::move(text);
      }
    }
    s.ours = s.Has("build") || (Child(s.node, "image").IsScalar() &&
                                built_images.count(Child(s.node, "image").Scalar()) != 0);
    // environment: a map, or a list of KEY=VALUE.
    if (const YAML::Node env = Child(s.node, "environment"); env.IsMap()) {
      for (const auto& kv : env) {
        s.environment[kv.first.as<std::string>()] = kv.second.IsNull() ? "" : kv.second.as<std::string>();
      }
    } else if (env.IsSequence()) {
      for (const YAML::Node& item : env) {
        const std::string text = item.as<std::string>();
        const auto eq = text.find('=');
        s.environment[text.substr(0, eq)] = eq == std::string::npos ? "" : text.substr(eq + 1);
      }
    }
    // depends_on: a list, or a map of name -> {condition}.
    if (const YAML::Node deps = Child(s.node, "depends_on"); deps.IsSequence()) {
      for (const YAML::Node& d : deps) s.depends_on.insert(d.as<std::string>());
    } else if (deps.IsMap()) {
      for (const auto& d : deps) s.depends_on.insert(d.first.as<std::string>());
    }

    // command (after entrypoint).
    const std::string command_where = absl::StrCat(s.where, ", command");
    std::vector<std::string> words = Words(Child(s.node, "entrypoint"), s.where + ", entrypoint", &errors);
    for (std::string& w : Words(Child(s.node, "command"), command_where, &errors)) words.push_back(std::move(w));
    const bool project_command = !words.empty() && !flags_->BinaryName(words[0]).empty();
    if (s.ours && !project_command) {
      errors.push_back(absl::StrCat(
          command_where, ": runs the project's image but names no project binary (",
          words.empty() ? std::string("no command") : "'" + words[0] + "'", ")"));
    }
    if (project_command) {
      s.commands.push_back({command_where, false, flags_->Check(words, command_where, &errors)});
      ++report.commands;
    }

    // healthcheck, and its command when it runs a project binary.
    const YAML::Node health = Child(s.node, "healthcheck");
    const std::string health_where = absl::StrCat(s.where, ", healthcheck");
    if (!health.IsMap()) {
      errors.push_back(absl::StrCat(s.where, ": has no healthcheck"));
    } else if (Child(health, "disable").IsScalar() && Child(health, "disable").as<bool>()) {
      errors.push_back(absl::StrCat(health_where, ": disabled"));
    } else if (const YAML::Node test = Child(health, "test"); test.IsNull() ||
               (test.IsSequence() && test.size() < 2) ||
               (test.IsSequence() && test[0].as<std::string>() == "NONE")) {
      errors.push_back(absl::StrCat(health_where, ": no test command"));
    } else {
      std::vector<ShellCommand> health_commands;
      const bool shell = test.IsScalar() || test[0].as<std::string>() == "CMD-SHELL";
      if (shell) {
        auto split = SplitShellCommands(test.IsScalar() ? test.Scalar() : test[1].as<std::string>());
        if (!split.ok()) {
          errors.push_back(absl::StrCat(health_where, ": ", split.status().message()));
        } else {
          health_commands = std::move(*split);
        }
      } else if (test[0].as<std::string>() == "CMD") {
        ShellCommand c;
        for (std::size_t i = 1; i < test.size(); ++i) c.words.push_back(test[i].as<std::string>());
        health_commands.push_back(std::move(c));
      } else {
        errors.push_back(absl::StrCat(health_where, ": test must start with CMD, CMD-SHELL or NONE"));
      }
      for (const ShellCommand& c : health_commands) {
        if (c.words.empty() || flags_->BinaryName(c.words[0]).empty()) continue;
        s.commands.push_back({health_where, true, flags_->Check(c.words, health_where, &errors)});
        ++report.commands;
      }
    }

    // The image must hold what the service runs.
    if (!s.dockerfile_text.empty()) {
      for (const CheckedCommand& c : s.commands) {
        if (!c.parsed.binary.empty() && !DockerfileMentions(s.dockerfile_text, c.parsed.binary)) {
          errors.push_back(absl::StrCat(c.where, ": runs ", c.parsed.binary,
                                        ", which the service's Dockerfile does not install"));
        }
      }
    }

    // A listening command, and whether it needs a token (trestled refuses to
    // listen beyond loopback without one).
    if (const CommandFlagChecker::ParsedCommand* daemon = s.Daemon(); daemon != nullptr) {
      for (const char* flag : kListenFlags) {
        auto value = daemon->ValueOf(flag);
        if (!value || value->empty()) continue;
        auto address = ParseHostPort(*value);
        if (address && !IsLoopback(address->host)) s.needs_token = true;
      }
      const auto token = daemon->ValueOf("--auth-token");
      const bool has_token = (token && !token->empty()) ||
                             !s.environment["TRESTLE_TOKEN"].empty() ||
                             daemon->ValueOf("--config").has_value();
      if (s.needs_token && !has_token) {
        errors.push_back(absl::StrCat(command_where,
                                      ": listens beyond loopback without a token: trestled will "
                                      "refuse to start (set TRESTLE_TOKEN in environment or "
                                      "--auth-token)"));
      }
    }
    services.emplace(s.name, std::move(s));
  }

  // Pass 2: what services say about each other.
  for (auto& [name, s] : services) {
    if (!s.node.IsMap()) continue;
    // depends_on.
    if (const YAML::Node deps = Child(s.node, "depends_on"); !deps.IsNull()) {
      for (const std::string& dep : s.depends_on) {
        auto target = services.find(dep);
        if (target == services.end()) {
          errors.push_back(absl::StrCat(s.where, ", depends_on: no service named '", dep, "'"));
          continue;
        }
        if (deps.IsMap() && Child(Child(deps, dep), "condition").IsScalar() &&
            Child(Child(deps, dep), "condition").Scalar() == "service_healthy" &&
            !Child(target->second.node, "healthcheck").IsMap()) {
          errors.push_back(absl::StrCat(s.where, ", depends_on: ", dep,
                                        " is to be service_healthy but has no healthcheck"));
        }
      }
    }

    // Published ports against the listening addresses.
    if (const YAML::Node ports = Child(s.node, "ports"); ports.IsSequence()) {
      for (std::size_t i = 0; i < ports.size(); ++i) {
        const std::string where = absl::StrCat(s.where, ", ports[", i, "]");
        int container_port = 0;
        std::string text;
        if (ports[i].IsMap()) {
          text = Child(ports[i], "target").IsScalar() ? Child(ports[i], "target").Scalar() : "";
        } else {
          text = ports[i].as<std::string>();
          text = text.substr(0, text.find('/'));  // "7878/tcp"
          if (auto colon = text.rfind(':'); colon != std::string::npos) text = text.substr(colon + 1);
        }
        if (!absl::SimpleAtoi(text, &container_port)) {
          errors.push_back(absl::StrCat(where, ": cannot read a container port in '",
                                        ports[i].IsScalar() ? ports[i].Scalar() : text, "'"));
          continue;
        }
        const CommandFlagChecker::ParsedCommand* daemon = s.Daemon();
        if (daemon == nullptr) {
          errors.push_back(absl::StrCat(where, ": publishes port ", container_port,
                                        " but the command listens on no port (no --listen)"));
          continue;
        }
        std::vector<std::string> listening;
        bool matched = false;
        for (const char* flag : kListenFlags) {
          auto value = daemon->ValueOf(flag);
          if (!value || value->empty()) continue;
          listening.push_back(absl::StrCat(flag, " ", *value));
          auto address = ParseHostPort(*value);
          if (!address || address->port != container_port) continue;
          matched = true;
          if (IsLoopback(address->host)) {
            errors.push_back(absl::StrCat(where, ": publishes port ", container_port, " but ",
                                          flag, " ", *value,
                                          " is loopback inside the container: unreachable"));
          }
        }
        if (!matched) {
          errors.push_back(absl::StrCat(where, ": container port ", container_port,
                                        " is not one the command listens on (",
                                        absl::StrJoin(listening, ", "), ")"));
        }
      }
    }

    // Addresses that name services.
    for (const CheckedCommand& c : s.commands) {
      for (const Reference& ref : kReferences) {
        auto value = c.parsed.ValueOf(ref.client_flag);
        if (!value) continue;
        auto address = ParseHostPort(*value);
        const std::string what = absl::StrCat(ref.client_flag, " ", *value);
        if (!address) {
          errors.push_back(absl::StrCat(c.where, ": ", what, " is not HOST:PORT"));
          continue;
        }
        const bool self = IsLoopback(address->host);
        auto target = self ? services.find(name) : services.find(address->host);
        if (target == services.end()) {
          errors.push_back(absl::StrCat(c.where, ": ", what, ": no service named '",
                                        address->host, "'"));
          continue;
        }
        const Service& t = target->second;
        const std::string whose = self ? "this container" : "service " + t.name;
        auto listen = t.Daemon() == nullptr ? std::nullopt : t.Daemon()->ValueOf(ref.listen_flag);
        auto listen_address = listen ? ParseHostPort(*listen) : std::nullopt;
        if (!listen_address || listen_address->port != address->port) {
          errors.push_back(absl::StrCat(c.where, ": ", what, ", but ", whose, " has ",
                                        ref.listen_flag, " ",
                                        listen ? *listen : std::string("(none)")));
          continue;
        }
        if (!self && IsLoopback(listen_address->host)) {
          errors.push_back(absl::StrCat(c.where, ": ", what, ", but ", whose, " has ",
                                        ref.listen_flag, " ", *listen,
                                        ": loopback, unreachable from another container"));
        }
        if (!self && !c.health && s.depends_on.count(t.name) == 0) {
          errors.push_back(absl::StrCat(c.where, ": ", what, ", but ", t.name,
                                        " is not in depends_on"));
        }
        const auto token = c.parsed.ValueOf("--token");
        if (t.needs_token && (!token || token->empty()) &&
            s.environment["TRESTLE_TOKEN"].empty()) {
          errors.push_back(absl::StrCat(c.where, ": ", what, ", but ", whose,
                                        " requires a token and this service has none "
                                        "(TRESTLE_TOKEN in environment, or --token)"));
        }
      }
      if (auto store = c.parsed.ValueOf("--store"); store && absl::StartsWith(*store, "redis://")) {
        auto address = ParseHostPort(*store);
        if (!address || services.count(address->host) == 0) {
          errors.push_back(absl::StrCat(c.where, ": --store ", *store,
                                        ": the host is not a service of this file"));
        } else if (!c.health && s.depends_on.count(address->host) == 0) {
          errors.push_back(absl::StrCat(c.where, ": --store ", *store, ", but ", address->host,
                                        " is not in depends_on"));
        }
      }
    }
  }
}

}  // namespace trestle::deploy
