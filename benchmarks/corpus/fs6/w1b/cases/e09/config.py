model = dict(
    backbone=dict(stem_channels=8, stage_channels=(16, 32, 64)),
    neck=dict(
        type="PAFPN",
        in_channels=[16, 32, 64],
        out_channels=32,
        num_outs=4,
        norm=True,
        act_cfg=dict(type="ReLU"),
    ),
    head=dict(num_classes=5, feat_channels=32),
)

optimizer = dict(lr=0.01, momentum=0.9, weight_decay=1e-4)

train = dict(iters=3, batch_size=2, img_size=64, seed=0)
