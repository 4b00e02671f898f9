# kblink: build, install and check.
#
#   make                      release build with the Swift runtime linked statically
#   make install              install under PREFIX (default /usr/local); DESTDIR for staging (packages)
#   make uninstall            remove what install put there
#   make test                 scripts/test (unit and integration tests)
#   make format-check         swift format lint over the sources
#
# After installing: systemctl daemon-reload; systemctl enable --now kblinkd; systemctl reload dbus;
# udevadm control --reload && udevadm trigger --subsystem-match=hidraw

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
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
# systemd-sysusers and udev read /usr/local/lib/... as well as /usr/lib/...
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# systemd --user reads units from /usr/local/lib/systemd/user as well as /usr/lib/systemd/user.
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
# The example next to the file kblinkd reads (ConfigurationDirectory=kblink is /etc/kblink).
CONFDIR ?= /etc/kblink
DOCDIR ?= $(PREFIX)/share/doc/kblink

SWIFT ?= swift
BUILD_FLAGS ?= -c release --static-swift-stdlib
BUILD_DIR = .build/release
BINARIES = kblinkd kblink

INSTALL ?= install

.PHONY: all build install uninstall test format-check clean

all: build

build:
	$(SWIFT) build $(BUILD_FLAGS) --product kblinkd
	$(SWIFT) build $(BUILD_FLAGS) --product kblink

# Install what "make build" made; building here would leave root-owned files in .build under "sudo make install".
$(addprefix $(BUILD_DIR)/,$(BINARIES)):
	@echo "$@ is missing: run 'make build' first (as your user), then 'sudo make install'." >&2
	@exit 1

install: $(addprefix $(BUILD_DIR)/,$(BINARIES))
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(addprefix $(BUILD_DIR)/,$(BINARIES)) $(DESTDIR)$(BINDIR)/
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
	$(INSTALL) -m 0644 systemd/org.kblink1.policy $(DESTDIR)$(POLKITACTIONDIR)/org.kblink1.policy
	$(INSTALL) -d $(DESTDIR)$(SYSUSERSDIR)
	$(INSTALL) -m 0644 systemd/kblinkd.sysusers $(DESTDIR)$(SYSUSERSDIR)/kblinkd.conf
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
	$(INSTALL) -m 0644 docs/desktop.md $(DESTDIR)$(DOCDIR)/desktop.md
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUSERUNITDIR)
	sed -e 's|/usr/local/bin/kblink|$(BINDIR)/kblink|g' \
	    -e 's|file:///usr/local/share/doc/kblink/|file://$(DOCDIR)/|g' \
	    systemd/kblink-osk-agent.service > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/kblink-osk-agent.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUSERUNITDIR)/kblink-osk-agent.service

# Leaves /etc/kblink/kblinkd.conf (the administrator's file), /var/lib/kblink (stored profiles) and the user
# kblinkd (which may own files) in place.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(BINARIES))
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/kblinkd.service
	rm -f $(DESTDIR)$(DBUSSERVICEDIR)/org.kblink1.service
	rm -f $(DESTDIR)$(DBUSPOLICYDIR)/org.kblink1.conf
	rm -f $(DESTDIR)$(POLKITACTIONDIR)/org.kblink1.policy
	rm -f $(DESTDIR)$(SYSUSERSDIR)/kblinkd.conf
	rm -f $(DESTDIR)$(UDEVRULESDIR)/70-kblink-via.rules
	rm -f $(DESTDIR)$(CONFDIR)/kblinkd.conf.example
	-rmdir $(DESTDIR)$(CONFDIR) 2>/dev/null
	rm -f $(DESTDIR)$(DOCDIR)/systemd.md $(DESTDIR)$(DOCDIR)/desktop.md
	rm -f $(DESTDIR)$(SYSTEMDUSERUNITDIR)/kblink-osk-agent.service
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

test:
	scripts/test

format-check:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Benchmarks

clean:
	$(SWIFT) package clean
