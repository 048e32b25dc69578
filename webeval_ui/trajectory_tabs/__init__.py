"""The trajectory page's tabs, one module each; pages/trajectory.py lays them out."""
