#ifndef BIRD_CLINUX_SHIM_H
#define BIRD_CLINUX_SHIM_H
// Linux kernel interfaces that Glibc's Swift module does not carry. Header-only (nothing to link):
// the kernel's and libc's own declarations, so Swift code never looks symbols up at run time or lays
// structs out by hand.
//
// epoll and eventfd (the WebSocket module's event loop): epoll_create1, epoll_ctl, epoll_wait,
// struct epoll_event (packed on x86_64: Swift imports the layout Clang computes) with its
// epoll_data union, EPOLL_CTL_*, the EPOLL_EVENTS values (EPOLLIN, …: an enum whose rawValue is the
// bit), EPOLL_CLOEXEC, eventfd and EFD_*. Everything imports as is: no wrappers needed.
//
// rtnetlink (the network path monitor): nlmsghdr, nlmsgerr, sockaddr_nl, ifinfomsg, ifaddrmsg,
// rtmsg, rtattr, rtnexthop, the RTM_*, RTA_*, IFLA_*, IFA_*, RTMGRP_* and NLM_F_* constants.
// Macros Swift cannot import (NLMSG_ALIGN, RTA_OK, ...) are not wrapped: Swift code computes them
// from the imported NLMSG_ALIGNTO / RTA_ALIGNTO / RTNH_ALIGNTO with overflow-checked arithmetic.
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#endif
