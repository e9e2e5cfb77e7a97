#ifndef BIRD_CLINUX_SHIM_H
#define BIRD_CLINUX_SHIM_H
// Linux kernel interfaces that Glibc's Swift module does not carry. Header-only (nothing to link):
// the kernel's own structs and constants, so Swift code never lays them out by hand.
//
// rtnetlink (the network path monitor): nlmsghdr, nlmsgerr, sockaddr_nl, ifinfomsg, ifaddrmsg,
// rtmsg, rtattr, rtnexthop, the RTM_*, RTA_*, IFLA_*, IFA_*, RTMGRP_* and NLM_F_* constants.
// Macros Swift cannot import (NLMSG_ALIGN, RTA_OK, ...) are not wrapped: Swift code computes them
// from the imported NLMSG_ALIGNTO / RTA_ALIGNTO / RTNH_ALIGNTO with overflow-checked arithmetic.
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#endif
