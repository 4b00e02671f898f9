# kblink: build, install and check.
#
#   make                      release build with the Swift runtime linked statically
#   make install              install under PREFIX (default /usr/local); DESTDIR for staging (packages)
#   make uninstall            remove what install put there
#   make deb                  the Debian packages kblinkd and kblink, in build/deb (scripts/package; docs/packaging.md)
#   make test                 scripts/test (unit and integration tests)
#   make format-check         swift format lint over the sources
#
# After installing: systemctl daemon-reload; systemctl enable --now kblinkd; systemctl reload dbus;
# udevadm control --reload && udevadm trigger --subsystem-match=hidraw

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
# Programs other programs run: kblink-fix-host, which kblink doctor --fix starts through pkexec.
LIBEXECDIR ?= $(PREFIX)/libexec
# systemd reads units from /usr/local/lib/systemd/system as well as /usr/lib/systemd/system.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# dbus-daemon reads activation files from /usr/local/share/dbus-1/system-services and /usr/share/dbus-1/....
DBUSSERVICEDIR ?= $(PREFIX)/share/dbus-1/system-services
# dbus-daemon reads system bus policies only from /usr/share/dbus-1/system.d and /etc/dbus-1/system.d, not from
# /usr/local/share: a PREFIX other than /usr puts the policy in /etc, where the administrator's policies live.
ifeq ($(PREFIX),/usr)
DBUSPOLICYDIR ?= $(PREFIX)/share/dbus-1/system.d
else
DBUSPOLICYDIR ?= /etc/dbus-1/system.d
endif
# polkit reads action files only from /usr/share/polkit-1/actions, whatever the PREFIX.
POLKITACTIONDIR ?= /usr/share/polkit-1/actions
# systemd-sysusers, systemd-tmpfiles and udev read /usr/local/lib/... as well as /usr/lib/...
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# The example next to the file kblinkd reads (ConfigurationDirectory=kblink is /etc/kblink).
CONFDIR ?= /etc/kblink
DOCDIR ?= $(PREFIX)/share/doc/kblink
# User units (systemd/NAME.user.service, installed as NAME.service); systemd --user reads /usr/local/lib/systemd/user.
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
MANDIR ?= $(PREFIX)/share/man
# bash-completion loads completions/CMD on first use from its own directory and from $XDG_DATA_DIRS (which includes
# /usr/local/share).
BASHCOMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

SWIFT ?= swift
# The Swift runtime and the C++ library it needs linked statically (scripts/link/libstdc++.so says how and why).
STATIC_LINK_FLAGS = --static-swift-stdlib -Xlinker -L$(CURDIR)/scripts/link
BUILD_FLAGS ?= -c release $(STATIC_LINK_FLAGS)
BUILD_DIR = .build/release
BINARIES = kblinkd kblink
# Installed in LIBEXECDIR/kblink: the polkit action org.kblink1.fix-host names its path.
HELPERS = kblink-fix-host
# kblinkd(8) and kblink(1), written by scripts/manpage: kblinkd's from its --help, kblink's by `kblink _manpage` from
# its command table.
MAN_DIR = $(BUILD_DIR)/man
MANPAGES = $(MAN_DIR)/kblinkd.8 $(MAN_DIR)/kblink.1
# systemd/NAME.user.service: user units (for example the desktop agent's), installed by the kblink package.
USER_UNITS = $(wildcard systemd/*.user.service)

INSTALL ?= install

.PHONY: all build man install uninstall test format-check clean deb

all: build

build:
	$(SWIFT) build $(BUILD_FLAGS) --product kblinkd
	$(SWIFT) build $(BUILD_FLAGS) --product kblink
	$(SWIFT) build $(BUILD_FLAGS) --product kblink-fix-host
	$(MAKE) man

man:
	mkdir -p $(MAN_DIR)
	scripts/manpage kblinkd $(BUILD_DIR)/kblinkd > $(MAN_DIR)/kblinkd.8.tmp
	mv $(MAN_DIR)/kblinkd.8.tmp $(MAN_DIR)/kblinkd.8
	scripts/manpage kblink $(BUILD_DIR)/kblink > $(MAN_DIR)/kblink.1.tmp
	mv $(MAN_DIR)/kblink.1.tmp $(MAN_DIR)/kblink.1

# Install what "make build" made; building here would leave root-owned files in .build under "sudo make install".
$(addprefix $(BUILD_DIR)/,$(BINARIES) $(HELPERS)) $(MANPAGES):
	@echo "$@ is missing: run 'make build' first (as your user), then 'sudo make install'." >&2
	@exit 1

install: $(addprefix $(BUILD_DIR)/,$(BINARIES) $(HELPERS)) $(MANPAGES)
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(addprefix $(BUILD_DIR)/,$(BINARIES)) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -d $(DESTDIR)$(LIBEXECDIR)/kblink
	$(INSTALL) -m 0755 $(addprefix $(BUILD_DIR)/,$(HELPERS)) $(DESTDIR)$(LIBEXECDIR)/kblink/
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUNITDIR)
	sed -e 's|/usr/local/bin/kblinkd|$(BINDIR)/kblinkd|g' \
	    -e 's|file:///usr/local/share/doc/kblink/|file://$(DOCDIR)/|g' \
	    systemd/kblinkd.service > $(DESTDIR)$(SYSTEMDUNITDIR)/kblinkd.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/kblinkd.service
	$(INSTALL) -d $(DESTDIR)$(DBUSSERVICEDIR)
	sed -e 's|/usr/local/bin/kblinkd|$(BINDIR)/kblinkd|g' \
	    systemd/org.kblink1.service > $(DESTDIR)$(DBUSSERVICEDIR)/org.kblink1.service
	chmod 0644 $(DESTDIR)$(DBUSSERVICEDIR)/org.kblink1.service
	$(INSTALL) -d $(DESTDIR)$(DBUSPOLICYDIR)
	$(INSTALL) -m 0644 systemd/org.kblink1.conf $(DESTDIR)$(DBUSPOLICYDIR)/org.kblink1.conf
	$(INSTALL) -d $(DESTDIR)$(POLKITACTIONDIR)
	sed -e 's|/usr/local/libexec/kblink/|$(LIBEXECDIR)/kblink/|g' \
	    systemd/org.kblink1.policy > $(DESTDIR)$(POLKITACTIONDIR)/org.kblink1.policy
	chmod 0644 $(DESTDIR)$(POLKITACTIONDIR)/org.kblink1.policy
	$(INSTALL) -d $(DESTDIR)$(SYSUSERSDIR)
	$(INSTALL) -m 0644 systemd/kblinkd.sysusers $(DESTDIR)$(SYSUSERSDIR)/kblinkd.conf
	$(INSTALL) -d $(DESTDIR)$(TMPFILESDIR)
	$(INSTALL) -m 0644 systemd/kblinkd.tmpfiles $(DESTDIR)$(TMPFILESDIR)/kblinkd.conf
	$(INSTALL) -d $(DESTDIR)$(UDEVRULESDIR)
	sed -e 's|/usr/local/bin/kblinkd|$(BINDIR)/kblinkd|g' \
	    systemd/70-kblink-via.rules > $(DESTDIR)$(UDEVRULESDIR)/70-kblink-via.rules
	chmod 0644 $(DESTDIR)$(UDEVRULESDIR)/70-kblink-via.rules
	# The user kblinkd must exist before the unit starts; a staged install (DESTDIR) leaves that to the package.
	if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers >/dev/null; then \
	    systemd-sysusers $(SYSUSERSDIR)/kblinkd.conf; fi
	$(INSTALL) -d $(DESTDIR)$(CONFDIR)
	$(INSTALL) -m 0644 systemd/kblinkd.conf.example $(DESTDIR)$(CONFDIR)/kblinkd.conf.example
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0644 docs/systemd.md $(DESTDIR)$(DOCDIR)/systemd.md
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(MAN_DIR)/kblinkd.8 $(DESTDIR)$(MANDIR)/man8/kblinkd.8
	$(INSTALL) -m 0644 $(MAN_DIR)/kblink.1 $(DESTDIR)$(MANDIR)/man1/kblink.1
	$(INSTALL) -d $(DESTDIR)$(BASHCOMPLETIONDIR)
	$(INSTALL) -m 0644 completions/kblink.bash $(DESTDIR)$(BASHCOMPLETIONDIR)/kblink
	for unit in $(USER_UNITS); do \
	    $(INSTALL) -d $(DESTDIR)$(USERUNITDIR) && \
	    sed -e 's|/usr/local/bin/|$(BINDIR)/|g' -e 's|file:///usr/local/share/doc/kblink/|file://$(DOCDIR)/|g' \
	        $$unit > $(DESTDIR)$(USERUNITDIR)/$$(basename $$unit .user.service).service && \
	    chmod 0644 $(DESTDIR)$(USERUNITDIR)/$$(basename $$unit .user.service).service || exit 1; done
	$(INSTALL) -m 0644 docs/desktop.md $(DESTDIR)$(DOCDIR)/desktop.md

# Leaves /etc/kblink/kblinkd.conf (the administrator's file), /var/lib/kblink (stored profiles) and the user
# kblinkd (which may own files) in place.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(BINARIES))
	rm -f $(addprefix $(DESTDIR)$(LIBEXECDIR)/kblink/,$(HELPERS))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/kblink 2>/dev/null
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/kblinkd.service
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/org.kblink1.service
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/org.kblink1.conf
	rm -f $(DESTDIR)$(POLKITACTIONDIR)/org.kblink1.policy
	rm -f $(DESTDIR)$(SYSUSERSDIR)/kblinkd.conf
	rm -f $(DESTDIR)$(TMPFILESDIR)/kblinkd.conf
	rm -f $(DESTDIR)$(UDEVRULESDIR)/70-kblink-via.rules
	rm -f $(DESTDIR)$(CONFDIR)/kblinkd.conf.example
	-rmdir $(DESTDIR)$(CONFDIR) 2>/dev/null
	rm -f $(DESTDIR)$(DOCDIR)/systemd.md $(DESTDIR)$(DOCDIR)/desktop.md
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	rm -f $(DESTDIR)$(MANDIR)/man8/kblinkd.8 $(DESTDIR)$(MANDIR)/man1/kblink.1
	rm -f $(DESTDIR)$(BASHCOMPLETIONDIR)/kblink
	for unit in $(USER_UNITS); do rm -f $(DESTDIR)$(USERUNITDIR)/$$(basename $$unit .user.service).service; done

test:
	scripts/test

# Both Debian packages, built with dpkg-buildpackage from debian/ into build/deb (installs the build dependencies).
deb:
	scripts/package

format-check:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Benchmarks

clean:
	$(SWIFT) package clean
