// The system's SQLite (Debian: libsqlite3-dev; macOS: the SDK's), exposed to Swift as `CSQLite`.
#include <sqlite3.h>
