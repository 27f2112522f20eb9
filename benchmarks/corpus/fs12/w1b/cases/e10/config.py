CFG = {
    "plane_res": 32,
    "feat_dim": 8,
    "hidden": 64,
    "sample_mode": "nearest",
    "bounds": (-1.5, 1.5),
    "lr": 1e-3,
    "steps": 5,
    "n_rays": 256,
    "eikonal_weight": 0.1,
}
