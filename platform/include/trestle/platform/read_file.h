// ReadFile: the one reader of a whole file into memory (config files, id
// maps, a child process's captured output), so that every caller fails the
// same way and names the same things.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::platform {

// The bytes of the file at `path`, as they are. Errors name `what` (the
// caller's word for the file), the path and the system's reason: "cannot
// read <what> '<path>': No such file or directory"; NotFound when there is
// no such file, PermissionDenied when it may not be read, Unavailable
// otherwise (a directory, an I/O error).
absl::StatusOr<std::string> ReadFile(const std::string& path, std::string_view what = "file");

}  // namespace trestle::platform
