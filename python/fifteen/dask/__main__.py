"""`python -m fifteen.dask solve POSITION ...`: see driver.py."""

import sys

from .driver import main

sys.exit(main())
