#ifndef KBLINK_CDBUS_SHIM_H
#define KBLINK_CDBUS_SHIM_H

#include <dbus/dbus.h>

/* The size in bytes of an array as it is on the wire, for an iterator recursed into it: the length libdbus reads from the array's header,
 * without walking its elements. libdbus marks dbus_message_iter_get_array_len deprecated because callers rarely want a
 * byte count; a budget on what a caller sends wants exactly that. */
static inline int kblink_message_iter_array_bytes(DBusMessageIter *elements) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return dbus_message_iter_get_array_len(elements);
#pragma GCC diagnostic pop
}

#endif
