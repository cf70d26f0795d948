import CanaryTrap

/// Reference systems under test: logging transports and an inspector, some leaky and some safe.
public enum Examples {}
