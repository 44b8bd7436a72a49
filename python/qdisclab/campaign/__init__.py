# SPDX-License-Identifier: GPL-2.0-only
"""Campaigns: declarative parameter sweeps of the example programs.

* :mod:`~qdisclab.campaign.spec` reads a campaign file (TOML) and expands it into runs;
* :mod:`~qdisclab.campaign.engine` runs the missing ones on Dask and stores each result;
* :mod:`~qdisclab.campaign.store` is the SQLite results database;
* :mod:`~qdisclab.campaign.runner` is the task a worker executes (standard library only);
* :mod:`~qdisclab.campaign.replay` runs stored runs again and compares their reports;
* :mod:`~qdisclab.campaign.floor` measures a campaign's ``[floor]`` point against its floor
  (instructions per packet-hop, ``qdisc-lab bench --campaigns``);
* :mod:`~qdisclab.campaign.timing` says what a campaign cost (``doc/results/timing.csv``), with
  :mod:`~qdisclab.campaign.machine_load` the machine's load while a sweep ran;
* :mod:`~qdisclab.campaign.api` is the Python interface for notebooks: :func:`load`,
  :func:`run` (run or resume), :func:`results` (pandas) and :func:`datasets` (xarray).

``qdisc-lab sweep``, ``export``, ``salvage`` and ``replay`` are :mod:`qdisclab.commands.campaign`.
The tests' stand-in example program is ``python/tests/fakeprog.py``.

Importing this package is cheap: Dask is imported only when a sweep starts.
"""

from qdisclab.campaign.api import database, datasets, load, results, run
from qdisclab.campaign.spec import Campaign, CampaignError, Grid, Run, load_campaign, run_key

__all__ = ["Campaign", "CampaignError", "Grid", "Run", "database", "datasets", "load",
           "load_campaign", "results", "run", "run_key"]
