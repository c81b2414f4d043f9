#include "deploy_file_commands.h"

#include <cctype>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace trestle::deploy {
namespace {

// Splits `text` (which starts at line `first_line` of its file) and moves
// the line numbers to the file's.
absl::StatusOr<std::vector<ShellCommand>> SplitAt(std::string_view text, int first_line) {
  auto commands = SplitShellCommands(text);
  if (!commands.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("block at line ", first_line, ": ", commands.status().message()));
  }
  for (ShellCommand& c : *commands) c.line += first_line - 1;
  return commands;
}

// "VAR=value": a shell variable assignment before a command.
bool IsAssignment(std::string_view word) {
  const auto eq = word.find('=');
  if (eq == 0 || eq == std::string_view::npos) return false;
  for (char c : word.substr(0, eq)) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return !std::isdigit(static_cast<unsigned char>(word[0]));
}

// Drops what runs the program rather than being it.
void DropWrappers(std::vector<std::string>* words) {
  std::size_t i = 0;
  while (i < words->size()) {
    const std::string& w = (*words)[i];
    if (w == "sudo") {
      ++i;
      while (i < words->size() && absl::StartsWith((*words)[i], "-")) {
        // sudo's options that take a value.
        if ((*words)[i] == "-u" || (*words)[i] == "-g") ++i;
        ++i;
      }
    } else if (w == "env" || w == "exec" || w == "nohup") {
      ++i;
    } else if (IsAssignment(w)) {
      ++i;
    } else {
      break;
    }
  }
  words->erase(words->begin(), words->begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace

absl::StatusOr<std::vector<ShellCommand>> ExecStartCommands(std::string_view unit_text) {
  std::vector<ShellCommand> out;
  std::vector<absl::string_view> lines = absl::StrSplit(absl::string_view(unit_text.data(), unit_text.size()), '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = absl::StripLeadingAsciiWhitespace(lines[i]);
    if (!absl::StartsWith(line, "Exec")) continue;
    const auto eq = line.find('=');
    if (eq == absl::string_view::npos) continue;
    const int first_line = static_cast<int>(i) + 1;
    std::string value(line.substr(eq + 1));
    // Continuation lines.
    while (absl::EndsWith(value, "\\") && i + 1 < lines.size()) {
      value.back() = ' ';
      absl::StrAppend(&value, lines[++i]);
    }
    std::size_t skip = 0;
    while (skip < value.size() && std::string_view("-@:+! ").find(value[skip]) != std::string_view::npos) {
      ++skip;
    }
    auto commands = SplitAt(std::string_view(value).substr(skip), first_line);
    if (!commands.ok()) return commands.status();
    for (ShellCommand& c : *commands) out.push_back(std::move(c));
  }
  return out;
}

absl::StatusOr<std::vector<ShellCommand>> MarkdownShellCommands(std::string_view markdown) {
  std::vector<ShellCommand> out;
  std::vector<absl::string_view> lines = absl::StrSplit(absl::string_view(markdown.data(), markdown.size()), '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = absl::StripLeadingAsciiWhitespace(lines[i]);
    if (!absl::StartsWith(line, "```")) continue;
    const absl::string_view info = absl::StripAsciiWhitespace(line.substr(3));
    const bool shell = info == "sh" || info == "bash" || info == "shell" || info == "console";
    const std::size_t open = i;
    std::string block;
    for (++i; i < lines.size() && !absl::StartsWith(absl::StripLeadingAsciiWhitespace(lines[i]), "```"); ++i) {
      absl::string_view body = lines[i];
      if (info == "console") {  // only prompt lines are commands
        absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(body);
        body = absl::ConsumePrefix(&trimmed, "$ ") ? trimmed : absl::string_view();
      }
      absl::StrAppend(&block, body, "\n");
    }
    if (i >= lines.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", open + 1, ": code block never closed"));
    }
    if (!shell) continue;
    auto commands = SplitAt(block, static_cast<int>(open) + 2);
    if (!commands.ok()) return commands.status();
    for (ShellCommand& c : *commands) {
      DropWrappers(&c.words);
      if (!c.words.empty()) out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace trestle::deploy
