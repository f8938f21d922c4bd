# shellcheck shell=bash disable=SC2034
# Shared by conformance/mailserver/start and stop (sourced, not executed): where things are.
# Every value can be set from the environment first.
MAILSERVER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export AUTHFLOW_MAILSERVER_STATE="${AUTHFLOW_MAILSERVER_STATE:-$(dirname "$MAILSERVER_DIR")/.state-mailserver}"
export AUTHFLOW_IMAP_PORT="${AUTHFLOW_IMAP_PORT:-1143}"
export AUTHFLOW_IMAPS_PORT="${AUTHFLOW_IMAPS_PORT:-1993}"
export AUTHFLOW_MTA_PORT="${AUTHFLOW_MTA_PORT:-2526}"
STATE="$AUTHFLOW_MAILSERVER_STATE"
DOVECOT_PID_FILE="$STATE/dovecot.pid"
EXIM_PID_FILE="$STATE/exim.pid"
# The mailbox and everything exim writes belong to the Debian exim user (see README.md, "Why
# Debian-exim owns the Maildir").
MAIL_OWNER="Debian-exim"
