import torch
import torch.nn.functional as F

from mvsnet import MVSNet


class PL3DVNet:
    def __init__(self, lr=1e-3):
        self.mvsnet = MVSNet()
        self.lr = lr

    def configure_optimizers(self):
        return torch.optim.Adam([
            {"params": self.mvsnet.parameters()},
        ], lr=self.lr, weight_decay=1e-4)

    def on_train_epoch_start(self):
        self.mvsnet.train()
        # keep the pretrained MnasNet backbone frozen
        self.mvsnet.feat_extractor.eval()

    def training_step(self, batch):
        ref_img, src_img, depth_gt = batch
        depth_pred = self.mvsnet(ref_img, src_img)
        return F.smooth_l1_loss(depth_pred, depth_gt)
