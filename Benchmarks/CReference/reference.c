// The C reference pair for kblink-bench: plain libdbus, the way a careful C program would use it.

// pthread_setname_np
#define _GNU_SOURCE

#include "CReference.h"

#include <dbus/dbus.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>

static void set_error(char *error, size_t error_size, const char *what, const DBusError *dbus_error) {
    if (error == NULL || error_size == 0) return;
    if (dbus_error != NULL && dbus_error_is_set(dbus_error)) {
        snprintf(error, error_size, "%s: %s: %s", what, dbus_error->name, dbus_error->message);
    } else {
        snprintf(error, error_size, "%s", what);
    }
}

// A private, registered connection that does not exit the process when the bus goes away.
static DBusConnection *open_connection(const char *address, char *error, size_t error_size) {
    dbus_threads_init_default();
    DBusError dbus_error;
    dbus_error_init(&dbus_error);
    DBusConnection *connection = dbus_connection_open_private(address, &dbus_error);
    if (connection == NULL) {
        set_error(error, error_size, "cannot connect", &dbus_error);
        dbus_error_free(&dbus_error);
        return NULL;
    }
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    if (!dbus_bus_register(connection, &dbus_error)) {
        set_error(error, error_size, "cannot register on the bus", &dbus_error);
        dbus_error_free(&dbus_error);
        dbus_connection_close(connection);
        dbus_connection_unref(connection);
        return NULL;
    }
    return connection;
}

static void close_connection(DBusConnection *connection) {
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
}

// MARK: - Server

struct kbref_server {
    DBusConnection *connection;
    /// The reply to replay for GetManagedObjects, or NULL.
    DBusMessage *managed_objects;
    pthread_t thread;
    atomic_int stopping;
    atomic_llong answered;
};

static DBusHandlerResult server_message(DBusConnection *connection, DBusMessage *message, void *data) {
    kbref_server *server = data;
    if (!dbus_message_is_method_call(message, KBREF_BENCH_INTERFACE, KBREF_BENCH_MEMBER)) {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }
    dbus_int32_t a = 0, b = 0;
    DBusError dbus_error;
    dbus_error_init(&dbus_error);
    DBusMessage *reply;
    if (dbus_message_get_args(message, &dbus_error, DBUS_TYPE_INT32, &a, DBUS_TYPE_INT32, &b, DBUS_TYPE_INVALID)) {
        reply = dbus_message_new_method_return(message);
        // Wrapping addition, as the Swift server's &+.
        dbus_int32_t sum = (dbus_int32_t)((uint32_t)a + (uint32_t)b);
        if (reply != NULL) dbus_message_append_args(reply, DBUS_TYPE_INT32, &sum, DBUS_TYPE_INVALID);
    } else {
        reply = dbus_message_new_error(message, DBUS_ERROR_INVALID_ARGS, dbus_error.message);
        dbus_error_free(&dbus_error);
    }
    if (reply != NULL) {
        if (!dbus_message_get_no_reply(message)) dbus_connection_send(connection, reply, NULL);
        dbus_message_unref(reply);
    }
    atomic_fetch_add_explicit(&server->answered, 1, memory_order_relaxed);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static DBusHandlerResult server_filter(DBusConnection *connection, DBusMessage *message, void *data) {
    kbref_server *server = data;
    if (server->managed_objects == NULL
        || !dbus_message_is_method_call(message, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")) {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }
    // A copy has no serial yet; it becomes the reply to this call, to this caller.
    DBusMessage *reply = dbus_message_copy(server->managed_objects);
    if (reply != NULL && dbus_message_set_reply_serial(reply, dbus_message_get_serial(message))
        && dbus_message_set_destination(reply, dbus_message_get_sender(message))) {
        dbus_connection_send(connection, reply, NULL);
    }
    if (reply != NULL) dbus_message_unref(reply);
    atomic_fetch_add_explicit(&server->answered, 1, memory_order_relaxed);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static void *server_main(void *data) {
    kbref_server *server = data;
    // Blocks up to 50 ms for input, so a stop request is noticed quickly.
    while (!atomic_load(&server->stopping)) {
        if (!dbus_connection_read_write_dispatch(server->connection, 50)) break;
    }
    return NULL;
}

// Asks `source` for GetManagedObjects at `path` and keeps the reply. Returns NULL and fills `error` on failure.
static DBusMessage *fetch_managed_objects(
    DBusConnection *connection, const char *source, const char *path, char *error, size_t error_size) {
    if (!dbus_validate_bus_name(source, NULL) || !dbus_validate_path(path, NULL)) {
        set_error(error, error_size, "invalid source name or path", NULL);
        return NULL;
    }
    DBusMessage *call =
        dbus_message_new_method_call(source, path, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects");
    if (call == NULL) {
        set_error(error, error_size, "out of memory", NULL);
        return NULL;
    }
    DBusError dbus_error;
    dbus_error_init(&dbus_error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(connection, call, 60000, &dbus_error);
    dbus_message_unref(call);
    if (reply == NULL) {
        set_error(error, error_size, "GetManagedObjects failed", &dbus_error);
        dbus_error_free(&dbus_error);
    }
    return reply;
}

static kbref_server *start_server(
    const char *address, const char *source, const char *path, char *error, size_t error_size) {
    DBusConnection *connection = open_connection(address, error, error_size);
    if (connection == NULL) return NULL;
    kbref_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        set_error(error, error_size, "out of memory", NULL);
        close_connection(connection);
        return NULL;
    }
    server->connection = connection;
    if (source != NULL) {
        server->managed_objects = fetch_managed_objects(connection, source, path, error, error_size);
        if (server->managed_objects == NULL
            || !dbus_connection_add_filter(connection, server_filter, server, NULL)) {
            if (server->managed_objects != NULL) dbus_message_unref(server->managed_objects);
            close_connection(connection);
            free(server);
            return NULL;
        }
    }
    atomic_init(&server->stopping, 0);
    atomic_init(&server->answered, 0);
    static const DBusObjectPathVTable vtable = {.message_function = server_message};
    if (!dbus_connection_register_object_path(connection, KBREF_BENCH_PATH, &vtable, server)) {
        set_error(error, error_size, "cannot register " KBREF_BENCH_PATH, NULL);
        close_connection(connection);
        if (server->managed_objects != NULL) dbus_message_unref(server->managed_objects);
        free(server);
        return NULL;
    }
    if (pthread_create(&server->thread, NULL, server_main, server) != 0) {
        set_error(error, error_size, "cannot start the server thread", NULL);
        close_connection(connection);
        if (server->managed_objects != NULL) dbus_message_unref(server->managed_objects);
        free(server);
        return NULL;
    }
    // Named before start returns, so that the benchmark finds this thread's CPU time (as it does for the Swift
    // server's loop thread) as soon as it has the server.
    pthread_setname_np(server->thread, "kbref.server");
    return server;
}

kbref_server *kbref_server_start(const char *address, char *error, size_t error_size) {
    return start_server(address, NULL, NULL, error, error_size);
}

kbref_server *kbref_server_start_replaying(
    const char *address, const char *source, const char *path, char *error, size_t error_size) {
    if (source == NULL || path == NULL) {
        set_error(error, error_size, "a source and a path are needed", NULL);
        return NULL;
    }
    return start_server(address, source, path, error, error_size);
}

const char *kbref_server_unique_name(const kbref_server *server) {
    return dbus_bus_get_unique_name(server->connection);
}

int64_t kbref_server_calls_answered(const kbref_server *server) {
    return atomic_load(&((kbref_server *)server)->answered);
}

void kbref_server_stop(kbref_server *server) {
    if (server == NULL) return;
    atomic_store(&server->stopping, 1);
    pthread_join(server->thread, NULL);
    dbus_connection_unregister_object_path(server->connection, KBREF_BENCH_PATH);
    if (server->managed_objects != NULL) {
        dbus_connection_remove_filter(server->connection, server_filter, server);
        dbus_message_unref(server->managed_objects);
    }
    close_connection(server->connection);
    free(server);
}

// MARK: - Client

struct kbref_client {
    DBusConnection *connection;
};

kbref_client *kbref_client_open(const char *address, char *error, size_t error_size) {
    DBusConnection *connection = open_connection(address, error, error_size);
    if (connection == NULL) return NULL;
    kbref_client *client = calloc(1, sizeof *client);
    if (client == NULL) {
        set_error(error, error_size, "out of memory", NULL);
        close_connection(connection);
        return NULL;
    }
    client->connection = connection;
    return client;
}

void kbref_client_close(kbref_client *client) {
    if (client == NULL) return;
    close_connection(client->connection);
    free(client);
}

static DBusMessage *new_add_call(const char *destination, dbus_int32_t a) {
    DBusMessage *call =
        dbus_message_new_method_call(destination, KBREF_BENCH_PATH, KBREF_BENCH_INTERFACE, KBREF_BENCH_MEMBER);
    if (call == NULL) return NULL;
    dbus_int32_t b = 1;
    if (!dbus_message_append_args(call, DBUS_TYPE_INT32, &a, DBUS_TYPE_INT32, &b, DBUS_TYPE_INVALID)) {
        dbus_message_unref(call);
        return NULL;
    }
    return call;
}

// Whether `reply` is a method return carrying a + 1. Consumes the reference.
static int check_add_reply(DBusMessage *reply, dbus_int32_t a) {
    if (reply == NULL) return 0;
    int ok = 0;
    if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_METHOD_RETURN) {
        dbus_int32_t sum = 0;
        ok = dbus_message_get_args(reply, NULL, DBUS_TYPE_INT32, &sum, DBUS_TYPE_INVALID)
            && sum == (dbus_int32_t)((uint32_t)a + 1u);
    }
    dbus_message_unref(reply);
    return ok;
}

static int64_t add_calls_sequential(kbref_client *client, const char *destination, int64_t count) {
    int64_t correct = 0;
    for (int64_t i = 0; i < count; i++) {
        dbus_int32_t a = (dbus_int32_t)i;
        DBusMessage *call = new_add_call(destination, a);
        if (call == NULL) return -1;
        DBusError dbus_error;
        dbus_error_init(&dbus_error);
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(client->connection, call, 25000, &dbus_error);
        dbus_message_unref(call);
        if (reply == NULL) {
            dbus_error_free(&dbus_error);
            return -1;
        }
        correct += check_add_reply(reply, a);
    }
    return correct;
}

static int send_add(kbref_client *client, const char *destination, dbus_int32_t a, DBusPendingCall **pending) {
    DBusMessage *call = new_add_call(destination, a);
    if (call == NULL) return 0;
    int sent = dbus_connection_send_with_reply(client->connection, call, pending, 25000) && *pending != NULL;
    dbus_message_unref(call);
    return sent;
}

static int64_t add_calls_pipelined(kbref_client *client, const char *destination, int64_t count, int32_t in_flight) {
    DBusPendingCall **ring = calloc((size_t)in_flight, sizeof *ring);
    dbus_int32_t *arguments = calloc((size_t)in_flight, sizeof *arguments);
    if (ring == NULL || arguments == NULL) {
        free(ring);
        free(arguments);
        return -1;
    }
    int64_t sent = 0, completed = 0, correct = 0;
    int failed = 0;
    for (; sent < count && sent < in_flight; sent++) {
        arguments[sent] = (dbus_int32_t)sent;
        if (!send_add(client, destination, arguments[sent], &ring[sent])) {
            failed = 1;
            break;
        }
    }
    // One server answers in order, so the oldest call is always the next to complete.
    int32_t oldest = 0;
    while (!failed && completed < sent) {
        DBusPendingCall *pending = ring[oldest];
        dbus_pending_call_block(pending);
        DBusMessage *reply = dbus_pending_call_steal_reply(pending);
        dbus_pending_call_unref(pending);
        ring[oldest] = NULL;
        correct += check_add_reply(reply, arguments[oldest]);
        completed++;
        if (sent < count) {
            arguments[oldest] = (dbus_int32_t)sent;
            if (!send_add(client, destination, arguments[oldest], &ring[oldest])) {
                failed = 1;
                break;
            }
            sent++;
        }
        oldest = (oldest + 1) % in_flight;
    }
    for (int32_t i = 0; i < in_flight; i++) {
        if (ring[i] != NULL) {
            dbus_pending_call_cancel(ring[i]);
            dbus_pending_call_unref(ring[i]);
        }
    }
    free(ring);
    free(arguments);
    return failed ? -1 : correct;
}

int64_t kbref_client_add_calls(kbref_client *client, const char *destination, int64_t count, int32_t in_flight) {
    if (client == NULL || destination == NULL || count < 0) return -1;
    if (!dbus_validate_bus_name(destination, NULL)) return -1;
    if (in_flight <= 1) return add_calls_sequential(client, destination, count);
    return add_calls_pipelined(client, destination, count, in_flight);
}

// Where walk() leaves the string bytes it measured, so the compiler cannot drop the strlen calls.
static volatile int64_t string_bytes_sink;

// Reads every value below `iterator`; returns how many basic values it read.
static int64_t walk(DBusMessageIter *iterator) {
    int64_t values = 0;
    int type;
    while ((type = dbus_message_iter_get_arg_type(iterator)) != DBUS_TYPE_INVALID) {
        if (dbus_type_is_container(type)) {
            DBusMessageIter sub;
            dbus_message_iter_recurse(iterator, &sub);
            values += walk(&sub);
        } else if (type == DBUS_TYPE_STRING || type == DBUS_TYPE_OBJECT_PATH || type == DBUS_TYPE_SIGNATURE) {
            const char *text = NULL;
            dbus_message_iter_get_basic(iterator, &text);
            // Touch the bytes, as a decoder copying them would.
            string_bytes_sink += (int64_t)strlen(text);
            values += 1;
        } else {
            DBusBasicValue value;
            dbus_message_iter_get_basic(iterator, &value);
            values += 1;
        }
        dbus_message_iter_next(iterator);
    }
    return values;
}

static int64_t monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int64_t kbref_client_get_managed_objects(
    kbref_client *client, const char *destination, const char *path, int32_t walk_values, int64_t *walk_nanoseconds,
    int64_t *reply_bytes) {
    if (client == NULL || !dbus_validate_bus_name(destination, NULL) || !dbus_validate_path(path, NULL)) return -1;
    DBusMessage *call =
        dbus_message_new_method_call(destination, path, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects");
    if (call == NULL) return -1;
    DBusError dbus_error;
    dbus_error_init(&dbus_error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(client->connection, call, 25000, &dbus_error);
    dbus_message_unref(call);
    if (reply == NULL) {
        dbus_error_free(&dbus_error);
        return -1;
    }
    if (dbus_message_get_type(reply) != DBUS_MESSAGE_TYPE_METHOD_RETURN
        || strcmp(dbus_message_get_signature(reply), "a{oa{sa{sv}}}") != 0) {
        dbus_message_unref(reply);
        return -1;
    }
    int64_t values = 0;
    if (walk_values) {
        int64_t start = monotonic_nanoseconds();
        DBusMessageIter iterator;
        if (dbus_message_iter_init(reply, &iterator)) values = walk(&iterator);
        if (walk_nanoseconds != NULL) *walk_nanoseconds = monotonic_nanoseconds() - start;
    }
    if (reply_bytes != NULL) {
        char *marshalled = NULL;
        int length = 0;
        *reply_bytes = dbus_message_marshal(reply, &marshalled, &length) ? length : -1;
        dbus_free(marshalled);
    }
    dbus_message_unref(reply);
    return values;
}

int64_t kbref_demarshal(
    const uint8_t *bytes, int64_t length, int32_t walk_values, int64_t *demarshal_nanoseconds,
    int64_t *walk_nanoseconds) {
    if (bytes == NULL || length <= 0 || length > INT32_MAX) return -1;
    DBusError dbus_error;
    dbus_error_init(&dbus_error);
    int64_t start = monotonic_nanoseconds();
    DBusMessage *message = dbus_message_demarshal((const char *)bytes, (int)length, &dbus_error);
    if (demarshal_nanoseconds != NULL) *demarshal_nanoseconds = monotonic_nanoseconds() - start;
    if (message == NULL) {
        dbus_error_free(&dbus_error);
        return -1;
    }
    int64_t values = 0;
    if (walk_values) {
        start = monotonic_nanoseconds();
        DBusMessageIter iterator;
        if (dbus_message_iter_init(message, &iterator)) values = walk(&iterator);
        if (walk_nanoseconds != NULL) *walk_nanoseconds = monotonic_nanoseconds() - start;
    }
    dbus_message_unref(message);
    return values;
}

void kbref_libdbus_version(char *buffer, size_t size) {
    int major = 0, minor = 0, micro = 0;
    dbus_get_version(&major, &minor, &micro);
    snprintf(buffer, size, "%d.%d.%d", major, minor, micro);
}

// The hand-off benchmark's second thread: answers every byte on `pipes[0]` with one on `pipes[1]`, until EOF.
struct handoff_pipes {
    int to_peer[2];
    int to_caller[2];
};

static void *handoff_peer(void *argument) {
    struct handoff_pipes *pipes = argument;
    char byte;
    for (;;) {
        struct pollfd ready = {.fd = pipes->to_peer[0], .events = POLLIN};
        if (poll(&ready, 1, -1) < 0) continue;
        if (read(pipes->to_peer[0], &byte, 1) != 1) break;
        if (write(pipes->to_caller[1], &byte, 1) != 1) break;
    }
    return NULL;
}

int64_t kbref_thread_handoff_nanoseconds(int64_t round_trips) {
    if (round_trips <= 0) return -1;
    struct handoff_pipes pipes;
    if (pipe(pipes.to_peer) != 0) return -1;
    if (pipe(pipes.to_caller) != 0) {
        close(pipes.to_peer[0]);
        close(pipes.to_peer[1]);
        return -1;
    }
    pthread_t peer;
    int64_t result = -1;
    if (pthread_create(&peer, NULL, handoff_peer, &pipes) == 0) {
        char byte = 1;
        int64_t completed = 0;
        int64_t start = monotonic_nanoseconds();
        for (; completed < round_trips; completed++) {
            if (write(pipes.to_peer[1], &byte, 1) != 1) break;
            struct pollfd ready = {.fd = pipes.to_caller[0], .events = POLLIN};
            while (poll(&ready, 1, -1) < 0) {}
            if (read(pipes.to_caller[0], &byte, 1) != 1) break;
        }
        int64_t elapsed = monotonic_nanoseconds() - start;
        close(pipes.to_peer[1]);  // the peer reads EOF and ends
        pthread_join(peer, NULL);
        if (completed == round_trips) result = elapsed / (2 * round_trips);
    } else {
        close(pipes.to_peer[1]);
    }
    close(pipes.to_peer[0]);
    close(pipes.to_caller[0]);
    close(pipes.to_caller[1]);
    return result;
}
