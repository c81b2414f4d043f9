#include "shell_words.h"

#include "absl/strings/str_cat.h"

namespace trestle::deploy {

absl::StatusOr<std::vector<ShellCommand>> SplitShellCommands(std::string_view text) {
  std::vector<ShellCommand> commands;
  ShellCommand current;
  std::string word;
  bool in_word = false;  // a word has started (it may be empty: '')
  int line = 1;

  auto begin_word = [&] {
    if (!in_word && current.words.empty()) current.line = line;
    in_word = true;
  };
  auto end_word = [&] {
    if (!in_word) return;
    current.words.push_back(std::move(word));
    word.clear();
    in_word = false;
  };
  auto end_command = [&] {
    end_word();
    if (!current.words.empty()) commands.push_back(std::move(current));
    current = ShellCommand{};
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] == '\n') {  // continuation
        ++i;
        ++line;
        continue;
      }
      if (i + 1 < text.size()) {
        begin_word();
        word.push_back(text[++i]);
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      const int opened_at = line;
      begin_word();
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\n') ++line;
        // Inside "...", a backslash escapes only \ " $ ` and newline.
        if (c == '"' && text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\\\"$`\n").find(text[i + 1]) != std::string_view::npos) {
          ++i;
          if (text[i] == '\n') {
            ++line;
            continue;
          }
        }
        word.push_back(text[i]);
      }
      if (i >= text.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", opened_at, ": unterminated ", std::string(1, c), " quote"));
      }
      continue;
    }
    if (c == '#' && !in_word) {  // a comment runs to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '\n') {
      end_command();
      ++line;
      continue;
    }
    if (c == ';' || c == '&' || c == '|') {
      end_command();
      if (i + 1 < text.size() && text[i + 1] == c && c != ';') ++i;  // && ||
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      end_word();
      continue;
    }
    begin_word();
    word.push_back(c);
  }
  end_command();
  return commands;
}

}  // namespace trestle::deploy
