@_exported import CanaryTrap
