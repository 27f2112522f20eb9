import torch

from flow_model import FlowModel


def backbone_atoms(trans, rotmats):
    local = torch.tensor([[-0.525, 1.363, 0.0], [0.0, 0.0, 0.0], [1.526, 0.0, 0.0]])
    return trans[..., None, :] + torch.einsum("bnij,aj->bnai", rotmats, local)


class FlowModule(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self._exp_cfg = cfg
        self.model = FlowModel(cfg["c_s"], cfg["n_blocks"])

    def model_step(self, batch):
        cfg = self._exp_cfg
        trans_1, rotmats_1 = batch["trans_1"], batch["rotmats_1"]
        t = batch["t"]
        noise_trans = torch.randn_like(trans_1)
        trans_t = (1 - t[:, None, None]) * noise_trans + t[:, None, None] * trans_1
        rotmats_t = rotmats_1
        out = self.model(trans_t, rotmats_t, t)

        norm_scale = 1 - torch.min(t[:, None], torch.tensor(cfg["t_normalize_clip"]))
        trans_error = (trans_1 - out["pred_trans"]) / norm_scale[..., None] * cfg["trans_scale"]
        trans_loss = cfg["translation_loss_weight"] * (trans_error ** 2).sum(dim=(-1, -2)) / trans_1.shape[1]
        rots_error = (rotmats_1 - out["pred_rotmats"]) / norm_scale[..., None, None]
        rots_vf_loss = cfg["rotation_loss_weights"] * (rots_error ** 2).sum(dim=(-1, -2, -3)) / trans_1.shape[1]

        gt_bb = backbone_atoms(trans_1, rotmats_1)
        pred_bb = backbone_atoms(out["pred_trans"], out["pred_rotmats"])
        bb_atom_loss = ((gt_bb - pred_bb) ** 2).sum(dim=(-1, -2, -3)) / trans_1.shape[1]
        gt_dist = torch.cdist(trans_1, trans_1)
        pred_dist = torch.cdist(out["pred_trans"], out["pred_trans"])
        dist_mat_loss = ((gt_dist - pred_dist) ** 2).mean(dim=(-1, -2))

        se3_vf_loss = trans_loss + rots_vf_loss
        auxiliary_loss = (bb_atom_loss + dist_mat_loss) * (t > cfg["aux_loss_t_pass"])
        auxiliary_loss = auxiliary_loss * cfg["aux_loss_weight"]
        se3_vf_loss += auxiliary_loss
        return {
            "bb_atom_loss": bb_atom_loss,
            "trans_loss": trans_loss,
            "dist_mat_loss": dist_mat_loss,
            "auxiliary_loss": auxiliary_loss,
            "rots_vf_loss": rots_vf_loss,
            "se3_vf_loss": se3_vf_loss,
        }

    def training_step(self, batch):
        batch_losses = self.model_step(batch)
        total_losses = {k: v.mean() for k, v in batch_losses.items()}
        train_loss = total_losses[self._exp_cfg["loss"]] + total_losses["auxiliary_loss"]
        return train_loss, total_losses
