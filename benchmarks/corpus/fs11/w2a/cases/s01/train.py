import torch
from torch import optim

from fastai_optim import OptimWrapper
from model import SECONDNet

MODEL_CFG = {"num_point_features": 4, "num_class": 3}
OPTIM_CFG = {"OPTIMIZER": "adam_onecycle", "LR": 0.003, "WEIGHT_DECAY": 0.01, "MOMENTUM": 0.9}


def build_optimizer(model, optim_cfg):
    if optim_cfg["OPTIMIZER"] == "adam":
        return optim.Adam(model.parameters(), lr=optim_cfg["LR"],
                          weight_decay=optim_cfg["WEIGHT_DECAY"])
    if optim_cfg["OPTIMIZER"] == "adam_onecycle":
        def children(m):
            return list(m.children())

        def num_children(m):
            return len(children(m))

        flatten_model = lambda m: sum(map(flatten_model, m.children()), []) if num_children(m) else [m]
        get_layer_groups = lambda m: [torch.nn.Sequential(*flatten_model(m))]
        optimizer_func = lambda params, **kw: optim.Adam(params, betas=(0.9, 0.99))
        return OptimWrapper.create(optimizer_func, 3e-3, get_layer_groups(model),
                                   wd=optim_cfg["WEIGHT_DECAY"], true_wd=True, bn_wd=True)
    raise NotImplementedError(optim_cfg["OPTIMIZER"])


def make_batch(gen, batch_size=24, max_points=5):
    voxels = torch.randn(batch_size, max_points, MODEL_CFG["num_point_features"], generator=gen)
    num_points = torch.randint(1, max_points + 1, (batch_size,), generator=gen)
    return {
        "voxels": voxels,
        "voxel_num_points": num_points,
        "gt_labels": torch.randint(0, MODEL_CFG["num_class"], (batch_size,), generator=gen),
        "gt_boxes": torch.randn(batch_size, 7, generator=gen),
    }


def train_one_epoch(model, optimizer, gen, total_it, lr_schedule):
    model.train()
    for it in range(total_it):
        optimizer.lr = lr_schedule(it)
        batch = make_batch(gen)
        optimizer.zero_grad()
        loss, tb_dict = model(batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
    return tb_dict


torch.manual_seed(0)
gen = torch.Generator().manual_seed(1)
model = SECONDNet(MODEL_CFG)
optimizer = build_optimizer(model, OPTIM_CFG)
total_it = 20
schedule = lambda it: OPTIM_CFG["LR"] * (0.5 + 0.5 * (it / total_it))
for epoch in range(2):
    stats = train_one_epoch(model, optimizer, gen, total_it, schedule)
    print(f"epoch {epoch} loss {stats['loss']:.4f}")
