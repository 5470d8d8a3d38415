// The C this package needs from the platform: Linux's epoll and socket details (CEpoll.h), and the
// SHA-256 compression function (CSHA256.h). One module, `import CSystem`.
#ifndef CSYSTEM_H
#define CSYSTEM_H

#include "CEpoll.h"
#include "CSHA256.h"

#endif
