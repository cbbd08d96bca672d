/*
 * status.h: status codes and error messages.
 *
 * Every public lsk function returns an int status: LSK_OK (0) on success,
 * a negative code on failure. OpenCL error codes (-1 ... -72, and the
 * extension codes at -1000 and below) pass through unchanged; lsk's own
 * codes live in the range -4000 ... -4099, clear of both.
 *
 * A detailed message for the last failure is kept per thread (lsk_errmsg)
 * and per context and thread (lsk_context_errmsg, context.h).
 */
#ifndef LSK_STATUS_H
#define LSK_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* XX(name, value, message). The one table for enum, names and messages. */
/* clang-format off */
#define LSK_STATUS_MAP(XX)                                                   \
  XX(OK, 0, "success")                                                       \
  XX(EINVAL, -4001, "invalid argument")                                      \
  XX(ENOMEM, -4002, "out of host memory")                                    \
  XX(ENODEV, -4003, "no such device")                                        \
  XX(EBUILD, -4004, "program build failed")                                  \
  XX(EVERIFY, -4005, "device verify failed")                                 \
  XX(EDOMAIN, -4006, "block domain missing or in conflict")                  \
  XX(ELAUNCH, -4007, "launch configuration not possible on this device")     \
  XX(EARGS, -4008, "kernel arguments do not match the kernel")              \
  XX(ENOKERNEL, -4009, "no such kernel in the program")                      \
  XX(EIO, -4010, "file input or output failed")                              \
  XX(ERANGE, -4011, "offset or size out of range")                         \
  XX(EBUSY, -4012, "work still pending on the object")                       \
  XX(ECOMM, -4013, "communication between processes failed")            \
  XX(ENOSPC, -4014, "a device pool ran out of space")
/* clang-format on */

typedef enum lsk_status {
#define LSK__XX(name, value, msg) LSK_##name = value,
  LSK_STATUS_MAP(LSK__XX)
#undef LSK__XX
} lsk_status;

/*
 * lsk_strerror: a fixed, static message for any status, lsk's own or an
 * OpenCL code ("CL_INVALID_WORK_GROUP_SIZE"). Unknown codes give
 * "unknown error". Never NULL, thread-safe.
 */
const char *lsk_strerror(int status);

/*
 * lsk_status_name: the symbolic name, "LSK_EINVAL" or "CL_OUT_OF_RESOURCES",
 * or "unknown". Never NULL, thread-safe.
 */
const char *lsk_status_name(int status);

/*
 * lsk_status_name_r: like lsk_status_name, but an unknown code is written
 * with its number ("unknown (-123)"). Writes at most len bytes including
 * the terminating zero into buf and returns buf.
 */
char *lsk_status_name_r(int status, char *buf, size_t len);

/*
 * lsk_errmsg: the detailed message of the calling thread's last failure in
 * lsk, whatever its context ("" if the thread has had none). It is current
 * when that failure happened in the thread's latest call of a function
 * that returns a status; otherwise it comes back marked, "(earlier) " in
 * front of the text, so that an old failure never reads as the one just
 * returned. Never NULL; valid until the calling thread's next failure. The
 * status a call returns is the truth: read the message after a failure.
 *
 * Functions that keep the message as it is (they neither mark nor replace
 * it, and read it unchanged): lsk_errmsg, lsk_context_errmsg,
 * lsk_strerror, lsk_status_name, lsk_status_name_r, lsk_version, the
 * accessors that return no status (lsk_buffer_size, lsk_context_device,
 * ...), the void destroys, and lsk_handle_add, lsk_handle_check and
 * lsk_handle_remove (handle.h: the parts of another library's functions,
 * which are the user's calls). Every other function that returns a status
 * starts a new call: a failure before it is marked from then on, even
 * when it succeeds. An accessor or a destroy given a handle that is not
 * live records its message all the same, as part of the latest call.
 * Functions lsk calls inside its own (lsk_kernel_run's finish, a library
 * call's launches) are part of the outer call and mark nothing.
 */
const char *lsk_errmsg(void);

#ifdef __cplusplus
}
#endif
#endif /* LSK_STATUS_H */
