// CommandFlagChecker: checks a command line written in a deployment file
// (docker-compose.yml, a systemd unit, a doc) against the real binary it
// names: its subcommands exist and each --flag is one that binary (or
// subcommand) lists in its --help output. The help is the truth: the checker
// runs `<binary> [subcommand...] --help` (popen) once per distinct
// subcommand path and reads CLI11's layout (option lines "  -c,--config TEXT",
// "  --listen TEXT=127.0.0.1:7878", "  --pull"; a "Subcommands:" list; a
// "Positionals:" section).
//
// Errors are strings that begin with the caller's `where` ("docker-compose.yml,
// service sim, command") and name the binary, the subcommand path and the
// flag or word at fault.
//
// Ownership: holds the map of binary name -> built binary path given at
// construction and a cache of parsed help texts. Not thread-safe.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trestle::deploy {

class CommandFlagChecker {
 public:
  // `binaries`: program name as written in commands ("trestled",
  // "trestle-sim", "trestle", "trestle-ping-pong") -> path of the binary the
  // build produced.
  explicit CommandFlagChecker(std::map<std::string, std::string> binaries);

  // The project binary `program` names, by its file name ("trestled",
  // "/usr/local/bin/trestled" and "build/daemon/trestled" all name
  // trestled), or "" if it names none.
  std::string BinaryName(std::string_view program) const;

  // A command as the binary would take it.
  struct ParsedCommand {
    std::string binary;                    // "trestle-sim"
    std::vector<std::string> subcommands;  // {"ghost"}
    // The flags as given, in order: canonical long name ("--config" for -c)
    // and value ("" for a switch such as --pull).
    std::vector<std::pair<std::string, std::string>> flags;
    // The defaults --help shows for this subcommand path, by canonical name.
    std::map<std::string, std::string> defaults;

    // The value of `flag` (canonical name): the last one given, else the
    // default --help shows, else nullopt.
    std::optional<std::string> ValueOf(std::string_view flag) const;
    // "trestle-sim ghost": for messages.
    std::string Path() const;
  };

  // Checks `words` (words[0] names a project binary; see BinaryName) and
  // appends one message per problem to `errors`: an unknown subcommand or
  // positional word, an unknown flag, a flag that needs a value and has none,
  // or a binary whose --help cannot be run.
  ParsedCommand Check(const std::vector<std::string>& words, const std::string& where,
                      std::vector<std::string>* errors);

 private:
  struct Option {
    std::string canonical;  // first long name, else the short one
    bool takes_value = false;
    std::string default_value;
  };
  struct Help {
    std::string error;  // non-empty if --help could not be run or read
    std::map<std::string, Option> options;  // every name: "-c", "--config"
    std::set<std::string> subcommands;
    bool positionals = false;
  };

  const Help& HelpFor(const std::string& binary, const std::vector<std::string>& subcommands);
  static Help ParseHelp(const std::string& text);

  std::map<std::string, std::string> binaries_;
  std::map<std::string, Help> help_cache_;  // key: "binary sub sub"
};

}  // namespace trestle::deploy
