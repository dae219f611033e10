#!/usr/bin/env python3
"""Writes nodes/<certname>.json: 8 nodes' facts derived from facter-base.json.

facter-base.json is `facter -j --show-legacy` on the benchmark machine (Debian 12,
Facter 4.3; legacy facts included, as Puppet 7 agents send them). Each node
gets its own hostname/fqdn, address, memory and processors, and some a
different OS (Debian 11, Ubuntu 22.04, RHEL 8/9, Rocky 9), with the legacy
facts kept consistent; plus the facts the modules' own fact code would send
(is_virtual, puppet_vardir, systemd_internal_services, apt_update_last_success)
and an external fact `role` (the role/profile classification and the hiera
role level). Deterministic: run it again and nothing changes.

    benches/realrepo/make-nodes.py
"""
import copy
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

OSES = {
    "debian12": dict(name="Debian", family="Debian", full="12.11", major="12", minor="11", codename="bookworm",
                     desc="Debian GNU/Linux 12 (bookworm)", kernel="6.1.0-37-amd64"),
    "debian11": dict(name="Debian", family="Debian", full="11.11", major="11", minor="11", codename="bullseye",
                     desc="Debian GNU/Linux 11 (bullseye)", kernel="5.10.0-35-amd64"),
    "ubuntu2204": dict(name="Ubuntu", family="Debian", full="22.04", major="22.04", minor=None, codename="jammy",
                       desc="Ubuntu 22.04.5 LTS", kernel="5.15.0-140-generic"),
    "rhel9": dict(name="RedHat", family="RedHat", full="9.5", major="9", minor="5", codename="Plow",
                  desc="Red Hat Enterprise Linux release 9.5 (Plow)", kernel="5.14.0-503.40.1.el9_5.x86_64"),
    "rhel8": dict(name="RedHat", family="RedHat", full="8.10", major="8", minor="10", codename="Ootpa",
                  desc="Red Hat Enterprise Linux release 8.10 (Ootpa)", kernel="4.18.0-553.el8_10.x86_64"),
    "rocky9": dict(name="Rocky", family="RedHat", full="9.5", major="9", minor="5", codename="Blue Onyx",
                   desc="Rocky Linux release 9.5 (Blue Onyx)", kernel="5.14.0-503.14.1.el9_5.x86_64"),
}

# certname, role, os, last octet, GiB memory, processors
NODES = [
    ("web01.prod.example.com", "webserver", "debian12", 11, 8, 4),
    ("web02.prod.example.com", "webserver", "debian12", 12, 8, 4),
    ("db01.prod.example.com", "database", "debian11", 21, 64, 16),
    ("mon01.prod.example.com", "monitoring", "ubuntu2204", 31, 16, 4),
    ("app01.prod.example.com", "app", "rhel9", 41, 32, 8),
    ("app02.prod.example.com", "app", "rocky9", 42, 32, 8),
    ("log01.prod.example.com", "loghost", "rhel8", 51, 16, 4),
    ("bastion01.dmz.example.com", "bastion", "debian12", 61, 2, 2),
]


def gib(n):
    return f"{n:.2f} GiB"


def node_facts(base, cert, role, os_key, octet, mem_gib, cpus):
    f = copy.deepcopy(base)
    o = OSES[os_key]
    host, domain = cert.split(".", 1)
    net = "10.20.%d" % (1 if "dmz" in domain else 2)
    ip = f"{net}.{octet}"
    mac = "52:54:00:14:%02x:%02x" % (octet // 16, octet)
    # os
    rel = {"full": o["full"], "major": o["major"]}
    if o["minor"]:
        rel["minor"] = o["minor"]
    f["os"] = {
        "architecture": "amd64" if o["family"] == "Debian" else "x86_64",
        "distro": {"codename": o["codename"], "description": o["desc"], "id": o["name"] if o["name"] != "RedHat" else "RedHatEnterprise",
                   "release": dict(rel)},
        "family": o["family"], "hardware": "x86_64", "name": o["name"], "release": rel,
        "selinux": {"enabled": False} if o["family"] == "Debian" else
        {"enabled": True, "enforced": True, "current_mode": "enforcing", "config_mode": "enforcing",
         "config_policy": "targeted", "policy_version": "33"},
    }
    f.update({"operatingsystem": o["name"], "osfamily": o["family"], "operatingsystemrelease": o["full"],
              "operatingsystemmajrelease": o["major"], "architecture": f["os"]["architecture"],
              "lsbdistcodename": o["codename"], "lsbdistdescription": o["desc"], "lsbdistid": f["os"]["distro"]["id"],
              "lsbdistrelease": o["full"], "lsbmajdistrelease": o["major"], "kernelrelease": o["kernel"],
              "kernelversion": o["kernel"].split("-")[0], "kernelmajversion": ".".join(o["kernel"].split(".")[:2])})
    if o["minor"]:
        f["lsbminordistrelease"] = o["minor"]
    else:
        f.pop("lsbminordistrelease", None)
    if o["family"] == "RedHat":
        f["selinux"] = True
    else:
        f["selinux"] = False
    # networking
    n = f["networking"]
    n.update({"fqdn": cert, "hostname": host, "domain": domain, "ip": ip, "mac": mac, "network": f"{net}.0", "mtu": 1500})
    eth0 = n["interfaces"]["eth0"]
    eth0.update({"ip": ip, "mac": mac, "network": f"{net}.0", "mtu": 1500})
    eth0["bindings"] = [{"address": ip, "netmask": "255.255.255.0", "network": f"{net}.0"}]
    for k in ("ifb0", "ifb1"):
        n["interfaces"].pop(k, None)
    f.update({"fqdn": cert, "hostname": host, "domain": domain, "ipaddress": ip, "ipaddress_eth0": ip, "macaddress": mac,
              "macaddress_eth0": mac, "network": f"{net}.0", "network_eth0": f"{net}.0", "mtu_eth0": 1500})
    for k in [k for k in f if k.endswith(("_ifb0", "_ifb1"))]:
        del f[k]
    # memory, processors
    total = mem_gib * 1024 ** 3
    used = total // 10
    f["memory"]["system"].update({"total": gib(mem_gib), "total_bytes": total, "used_bytes": used, "used": gib(used / 1024 ** 3),
                                  "available_bytes": total - used, "available": gib((total - used) / 1024 ** 3), "capacity": "10.00%"})
    f.update({"memorysize": gib(mem_gib), "memorysize_mb": "%.2f" % (mem_gib * 1024.0), "memoryfree": gib((total - used) / 1024 ** 3),
              "memoryfree_mb": "%.2f" % ((total - used) / 1024 ** 2)})
    f["processors"].update({"count": cpus, "cores": cpus, "models": ["AMD EPYC"] * cpus})
    f["processorcount"] = cpus
    for k in [k for k in f if k.startswith("processor") and k[9:].isdigit()]:
        del f[k]
    for i in range(cpus):
        f[f"processor{i}"] = "AMD EPYC"
    # what the modules' fact code and an external fact add
    f.update({"role": role, "is_virtual": True, "virtual": "kvm", "puppet_vardir": "/opt/puppetlabs/puppet/cache",
              "systemd_internal_services": {"systemd-networkd.service": "disabled", "systemd-resolved.service": "enabled",
                                            "systemd-timesyncd.service": "enabled" if o["family"] == "Debian" else "disabled"}})
    if o["family"] == "Debian":
        f["apt_update_last_success"] = 1767225600 + octet
    return f


def main():
    base = json.loads((HERE / "facter-base.json").read_text())
    out = HERE / "nodes"
    out.mkdir(exist_ok=True)
    for spec in NODES:
        facts = node_facts(base, *spec)
        (out / f"{spec[0]}.json").write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
