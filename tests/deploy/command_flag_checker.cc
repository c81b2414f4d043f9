#include "command_flag_checker.h"

#include <sys/wait.h>

#include <cctype>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace trestle::deploy {
namespace {

// `text` in single quotes for /bin/sh.
std::string ShellQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

// The CLI11 type word that follows an option's names: "TEXT", "UINT",
// "FLOAT:POSITIVE", "TEXT:{both,ping,pong}=both" (two capitals at least).
bool IsTypeWord(absl::string_view word) {
  std::size_t caps = 0;
  while (caps < word.size() && std::isupper(static_cast<unsigned char>(word[caps]))) ++caps;
  return caps >= 2 && (caps == word.size() || word[caps] == ':' || word[caps] == '=');
}

// "-5", "-0.5": a negative number is a value, not a flag.
bool IsFlagWord(absl::string_view word) {
  return word.size() >= 2 && word[0] == '-' &&
         !std::isdigit(static_cast<unsigned char>(word[1])) && word[1] != '.';
}

}  // namespace

CommandFlagChecker::CommandFlagChecker(std::map<std::string, std::string> binaries)
    : binaries_(std::move(binaries)) {}

std::string CommandFlagChecker::BinaryName(std::string_view program) const {
  const auto slash = program.rfind('/');
  const std::string name(slash == std::string_view::npos ? program : program.substr(slash + 1));
  return binaries_.count(name) != 0 ? name : std::string();
}

std::optional<std::string> CommandFlagChecker::ParsedCommand::ValueOf(std::string_view flag) const {
  for (auto it = flags.rbegin(); it != flags.rend(); ++it) {
    if (it->first == flag) return it->second;
  }
  if (auto d = defaults.find(std::string(flag)); d != defaults.end()) return d->second;
  return std::nullopt;
}

std::string CommandFlagChecker::ParsedCommand::Path() const {
  if (subcommands.empty()) return binary;
  return absl::StrCat(binary, " ", absl::StrJoin(subcommands, " "));
}

CommandFlagChecker::Help CommandFlagChecker::ParseHelp(const std::string& text) {
  Help help;
  enum class Section { kOther, kSubcommands, kPositionals } section = Section::kOther;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == absl::string_view::npos) {  // blank line ends a section
      section = Section::kOther;
      continue;
    }
    if (indent == 0) {
      section = line == "Subcommands:"  ? Section::kSubcommands
                : line == "Positionals:" ? Section::kPositionals
                                         : Section::kOther;
      if (section == Section::kPositionals) help.positionals = true;
      continue;
    }
    absl::string_view rest = line.substr(indent);
    if (section == Section::kSubcommands && indent == 2) {
      help.subcommands.emplace(rest.substr(0, rest.find(' ')));
      continue;
    }
    // An option line: "  NAMES[ TYPE[=DEFAULT]]   description". Description
    // lines are indented further (CLI11's column is 30) and rarely start
    // with '-'; names are never indented that far.
    if (rest.empty() || rest[0] != '-' || indent > 8) continue;
    const std::size_t names_end = std::min(rest.find(' '), rest.size());
    const absl::string_view names = rest.substr(0, names_end);
    Option option;
    // The type follows after exactly one space; the description after two
    // or more (or on the next line).
    if (names_end + 1 < rest.size() && rest[names_end + 1] != ' ') {
      absl::string_view type = rest.substr(names_end + 1);
      type = type.substr(0, type.find("  "));
      if (IsTypeWord(type.substr(0, type.find(' ')))) {
        option.takes_value = true;
        // The default runs from the '=' to the next blank ("FLOAT:FLOAT in
        // [0 - 1]=0"; "TEXT=127.0.0.1:7879 description" when the names fill
        // the column).
        if (auto eq = type.find('='); eq != absl::string_view::npos) {
          absl::string_view value = type.substr(eq + 1);
          option.default_value = std::string(value.substr(0, value.find(' ')));
        }
      }
    }
    std::vector<std::string> all = absl::StrSplit(names, ',', absl::SkipEmpty());
    for (const std::string& name : all) {
      if (absl::StartsWith(name, "--") || option.canonical.empty()) option.canonical = name;
      if (absl::StartsWith(name, "--")) break;
    }
    for (const std::string& name : all) help.options[name] = option;
  }
  return help;
}

const CommandFlagChecker::Help& CommandFlagChecker::HelpFor(
    const std::string& binary, const std::vector<std::string>& subcommands) {
  std::string key = binary;
  for (const std::string& s : subcommands) absl::StrAppend(&key, " ", s);
  if (auto it = help_cache_.find(key); it != help_cache_.end()) return it->second;

  Help help;
  std::string command = ShellQuote(binaries_.at(binary));
  for (const std::string& s : subcommands) absl::StrAppend(&command, " ", ShellQuote(s));
  absl::StrAppend(&command, " --help 2>&1");
  std::string text;
  if (FILE* pipe = popen(command.c_str(), "r"); pipe == nullptr) {
    help.error = absl::StrCat("cannot run `", key, " --help` (", binaries_.at(binary), ")");
  } else {
    char buffer[4096];
    std::size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
    const int status = pclose(pipe);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      help.error = absl::StrCat("`", key, " --help` (", binaries_.at(binary),
                                ") failed: ", absl::StripAsciiWhitespace(text.substr(0, 300)));
    } else {
      help = ParseHelp(text);
      if (help.options.empty()) {
        help.error = absl::StrCat("`", key, " --help` lists no options: not CLI11 help?");
      }
    }
  }
  return help_cache_.emplace(key, std::move(help)).first->second;
}

CommandFlagChecker::ParsedCommand CommandFlagChecker::Check(const std::vector<std::string>& words,
                                                            const std::string& where,
                                                            std::vector<std::string>* errors) {
  ParsedCommand parsed;
  parsed.binary = words.empty() ? std::string() : BinaryName(words[0]);
  if (parsed.binary.empty()) {
    errors->push_back(absl::StrCat(where, ": '", words.empty() ? "" : words[0],
                                   "' is not a binary this project builds"));
    return parsed;
  }
  const Help* help = &HelpFor(parsed.binary, {});
  bool flags_at_this_level = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (!help->error.empty()) {
      errors->push_back(absl::StrCat(where, ": ", help->error));
      return parsed;
    }
    const std::string& word = words[i];
    if (word == "--") break;  // the rest is positional
    if (IsFlagWord(word)) {
      flags_at_this_level = true;
      const auto eq = absl::StartsWith(word, "--") ? word.find('=') : std::string::npos;
      const std::string name = word.substr(0, eq);
      auto option = help->options.find(name);
      bool takes_value;
      std::string canonical = name;
      if (option == help->options.end()) {
        errors->push_back(absl::StrCat(where, ": ", parsed.Path(), " has no flag ", name,
                                       " (not in `", parsed.Path(), " --help`)"));
        // Guess, to keep reading: a word that follows and is no flag is its value.
        takes_value = i + 1 < words.size() && !IsFlagWord(words[i + 1]);
      } else {
        takes_value = option->second.takes_value;
        canonical = option->second.canonical;
      }
      std::string value;
      if (eq != std::string::npos) {
        value = word.substr(eq + 1);
      } else if (takes_value) {
        if (i + 1 >= words.size()) {
          errors->push_back(absl::StrCat(where, ": ", parsed.Path(), " ", name, " needs a value"));
        } else {
          value = words[++i];
        }
      }
      parsed.flags.emplace_back(canonical, value);
      continue;
    }
    if (!flags_at_this_level && help->subcommands.count(word) != 0) {
      parsed.subcommands.push_back(word);
      help = &HelpFor(parsed.binary, parsed.subcommands);
      continue;
    }
    if (help->positionals) continue;
    if (!help->subcommands.empty() && !flags_at_this_level) {
      errors->push_back(absl::StrCat(where, ": ", parsed.Path(), " has no subcommand '", word,
                                     "' (it has ", absl::StrJoin(help->subcommands, ", "), ")"));
    } else {
      errors->push_back(absl::StrCat(where, ": ", parsed.Path(), " takes no argument '", word,
                                     "' (no such subcommand or positional)"));
    }
  }
  if (!help->error.empty()) {
    errors->push_back(absl::StrCat(where, ": ", help->error));
    return parsed;
  }
  for (const auto& [name, option] : help->options) {
    if (option.takes_value && !option.default_value.empty()) {
      parsed.defaults[option.canonical] = option.default_value;
    }
  }
  return parsed;
}

}  // namespace trestle::deploy
