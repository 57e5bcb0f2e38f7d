#pragma once
// Text from a user's files (a scene's name, a key, a PLY property name, a path) on its way to a
// terminal or into an exception's message. A NUL byte would cut what() short, and an escape
// sequence would be run by the terminal (change colours, move the cursor, retitle the window)
// instead of being shown, so both are written out as \xNN.
#include <string>
#include <string_view>

namespace particles {

// `text` with every control character written as \xNN, byte by byte: C0 (0x00-0x1f), DEL (0x7f),
// C1 (U+0080-U+009F, which some terminals obey as ESC sequences), and every byte that is not part
// of well-formed UTF-8 (a terminal may take a stray 0x9b for a C1 control). Other characters,
// UTF-8 letters and backslashes included, are kept, so escaping twice changes nothing.
std::string printable(std::string_view text);

}  // namespace particles
