model = dict(
    name="SCNN",
    backbone=dict(arch="resnet18", replace_stride_with_dilation=[False, False, False]),
    reducer=dict(in_channels=128, out_channels=32),
    spatial_conv=dict(num_channels=32, inplace=True),
    num_classes=5,
    num_lanes=4,
)

train = dict(
    batch_size=2,
    input_size=(48, 128),
    lr=0.01,
    momentum=0.9,
    weight_decay=1e-4,
    epochs=1,
    iters=2,
    exist_weight=0.1,
)
