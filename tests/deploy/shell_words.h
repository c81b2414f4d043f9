// SplitShellCommands: the simple commands in a piece of POSIX shell text, as
// the words a shell would pass to each program (quotes removed), so that the
// deployment checks can look at a command's program and flags. Used on
// docker-compose `command:` strings and CMD-SHELL health checks, systemd
// ExecStart lines and the ```sh blocks of the docs.
//
// Understood: blanks between words; '...' and "..." quoting; backslash
// escapes; backslash-newline continuation; # comments at the start of a word;
// commands separated by newline, ;, &, &&, ||, | (a pipeline's stages are
// separate commands). Left as written (not expanded): $VAR, ${VAR}, $(...),
// globs, redirections (a redirection's target becomes a word). Good enough
// for checking the commands we write; it is not a shell.
//
// Errors: InvalidArgument naming the line of an unterminated quote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle::deploy {

struct ShellCommand {
  int line = 0;  // 1-based line of `text` where the command starts
  std::vector<std::string> words;
};

absl::StatusOr<std::vector<ShellCommand>> SplitShellCommands(std::string_view text);

}  // namespace trestle::deploy
