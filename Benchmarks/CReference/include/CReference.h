#ifndef KBLINK_CREFERENCE_H
#define KBLINK_CREFERENCE_H

// A reference D-Bus client and server written directly against libdbus, for side-by-side benchmarks with the
// Swift binding. Every function blocks its calling thread: call them from a thread of your own, never from a
// Swift concurrency thread. No libdbus type appears here, so Swift needs no libdbus headers to call them.

#include <stddef.h>
#include <stdint.h>

/// The object, interface and member both reference and Swift servers answer: Add(ii) -> i.
#define KBREF_BENCH_PATH "/com/example/bench"
#define KBREF_BENCH_INTERFACE "com.example.Bench"
#define KBREF_BENCH_MEMBER "Add"

/// A server on its own private connection and its own thread, answering Add(ii) -> (a + b) at
/// KBREF_BENCH_PATH through dbus_connection_register_object_path.
typedef struct kbref_server kbref_server;

/// Connects to the bus at `address`, registers, and starts the server thread.
/// Returns NULL and writes a message into `error` (of `error_size` bytes) on failure.
kbref_server *kbref_server_start(const char *address, char *error, size_t error_size);

/// Like kbref_server_start, and the server also answers org.freedesktop.DBus.ObjectManager.GetManagedObjects at any
/// path with a copy of the reply that `source` gave once for that call at `path`: the same bytes, at the cost of
/// a copy, so that a client's share of the time can be measured apart from the server's.
kbref_server *kbref_server_start_replaying(
    const char *address, const char *source, const char *path, char *error, size_t error_size);

/// The server connection's unique name (":1.n"), valid until kbref_server_stop.
const char *kbref_server_unique_name(const kbref_server *server);

/// How many calls the server answered so far.
int64_t kbref_server_calls_answered(const kbref_server *server);

/// Stops the thread, closes and releases the connection, frees the server.
void kbref_server_stop(kbref_server *server);

/// A client on its own private connection, used from one thread at a time.
typedef struct kbref_client kbref_client;

/// Connects to the bus at `address` and registers. Returns NULL and fills `error` on failure.
kbref_client *kbref_client_open(const char *address, char *error, size_t error_size);

/// Closes and releases the connection.
void kbref_client_close(kbref_client *client);

/// Calls Add(i, 1) on `destination` `count` times and checks every answer.
/// With `in_flight` <= 1 each call uses dbus_connection_send_with_reply_and_block; otherwise up to `in_flight`
/// pending calls are outstanding (dbus_connection_send_with_reply), the oldest awaited with
/// dbus_pending_call_block and replaced as soon as it completes.
/// Returns the number of correct answers, or -1 on an error.
int64_t kbref_client_add_calls(kbref_client *client, const char *destination, int64_t count, int32_t in_flight);

/// Calls org.freedesktop.DBus.ObjectManager.GetManagedObjects at `path` on `destination` and waits for the reply.
/// With `walk` non-zero, reads every value of the reply with DBusMessageIter (strings measured with strlen), the
/// least work any libdbus-based decoder does. Returns the number of values read (0 without `walk`), or -1 on an
/// error. When `walk_nanoseconds` is not NULL it receives the time the walk alone took (CLOCK_MONOTONIC). When
/// `reply_bytes` is not NULL it receives the marshalled size of the reply (costs one extra copy, after the timing).
int64_t kbref_client_get_managed_objects(
    kbref_client *client, const char *destination, const char *path, int32_t walk, int64_t *walk_nanoseconds,
    int64_t *reply_bytes);

/// Reads a message from its wire bytes with dbus_message_demarshal (libdbus copies and validates them: the work it
/// does on every message it receives) and, with `walk` non-zero, reads every value with DBusMessageIter as
/// kbref_client_get_managed_objects does. Returns the number of values read (0 without `walk`), or -1 when the bytes
/// are not a message. The two steps' times go to `demarshal_nanoseconds` and `walk_nanoseconds` when not NULL.
int64_t kbref_demarshal(
    const uint8_t *bytes, int64_t length, int32_t walk, int64_t *demarshal_nanoseconds, int64_t *walk_nanoseconds);

/// What one thread waking another costs on this machine, with no D-Bus involved: two threads pass a byte back and
/// forth `round_trips` times, each waiting in poll() on its own pipe. Returns the mean nanoseconds per hand-off
/// (half a round trip), or -1 when the threads or pipes cannot be made.
int64_t kbref_thread_handoff_nanoseconds(int64_t round_trips);

/// The libdbus version at run time, "major.minor.micro", into `buffer`.
void kbref_libdbus_version(char *buffer, size_t size);

#endif
