"""What read 54's reproducers share: read 53's setup and its finish() (which says why a check refused)."""
import os
import sys

sys.path.insert(0, os.path.join(os.environ["here"], "reproducers", "review-53"))
from common import *  # noqa: F403  (read 53's: reproducers/review-53/common.py)
